"""Publish/subscribe in the queue manager: subscriptions, publishing, copies, the publish exit."""
