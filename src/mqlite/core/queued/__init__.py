"""The queued publish/subscribe interface's rules (spec D §3-§8) as pure functions: the command
messages' parsing and checks (commands.py) and the pscr responses (responses.py). No I/O, no
queue-manager state."""
