"""Queue managers linked: message channels' decisions and state (no sockets; the server's channel
agents in ``server/channels`` carry them out)."""
