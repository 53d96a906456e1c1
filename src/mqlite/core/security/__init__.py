"""Security decisions: who is asking (principal), what authority records grant, the topic-tree
walk, channel authentication rules. Pure functions and in-memory state; the server supplies
identities (users files, OS groups, certificates) and core consults these at connect, open,
subscribe, alter, close-remove and admin commands, never per message."""
