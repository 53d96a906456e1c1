"""What the server remembers of OS users' groups (server/os_identity.OsGroups): read once per user,
read again when the account files change or at REFRESH SECURITY, as IBM's OAM rereads them."""

from __future__ import annotations

import os
from pathlib import Path

from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.mqsc.commands import run_mqsc
from mqlite.server.os_identity import OsGroups


def account_files(tmp_path: Path) -> tuple[str, str]:
    passwd, group = tmp_path / "passwd", tmp_path / "group"
    passwd.write_text("root:x:0:0::/root:/bin/sh\n")
    group.write_text("root:x:0:\n")
    return str(passwd), str(group)


def test_a_user_is_read_once_until_the_account_files_change(tmp_path: Path) -> None:
    passwd, group = account_files(tmp_path)
    groups = OsGroups((passwd, group))
    first = groups.principal("root")
    assert "root" in first.groups  # the real OS answer: root's primary group
    assert groups.principal("root") is first  # remembered, not read again
    with open(group, "a") as file:
        file.write("mqm:x:990:\n")  # the file changed (size and time): read again
    assert groups.principal("root") is not first
    again = groups.principal("root")
    os.utime(passwd, ns=(1, 1))
    assert groups.principal("root") is not again


def test_forget_reads_again_and_refresh_security_forgets(tmp_path: Path) -> None:
    groups = OsGroups(account_files(tmp_path))
    first = groups.principal("root")
    groups.forget()
    assert groups.principal("root") is not first
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    qm.security.on_refresh.append(groups.forget)  # as the server's host wires it
    second = groups.principal("root")
    assert run_mqsc(qm.admin_for(Principal("owner")), "REFRESH SECURITY").failed == 0
    assert groups.principal("root") is not second


def test_an_unknown_user_has_no_groups(tmp_path: Path) -> None:
    assert OsGroups(account_files(tmp_path)).principal("no-such-user-here").groups == frozenset()
