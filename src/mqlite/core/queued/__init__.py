"""The queued publish/subscribe interface's rules (spec D §3-§8) as pure functions: the command
messages' parsing and checks (commands.py), the pscr responses (responses.py), the topic mapping
of command messages and the SubName rules (names.py). No I/O, no queue-manager state."""
