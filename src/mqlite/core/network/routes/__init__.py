"""Routes in the style of TIBCO EMS: ROUTE objects, internal subscriptions, selectors per
topic and direction, store and forward."""
