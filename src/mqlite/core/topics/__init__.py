"""The topic tree and what matches topics: strings, wildcard schemes, the subscription index."""
