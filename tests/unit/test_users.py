"""The users file behind MQTT channels' CHCKCLNT (issue 6, security): hashing, parsing, refusals."""

from __future__ import annotations

import pytest

from mqlite.users import User, UsersFileError, hash_password, parse, render, verify_password


def test_hash_verifies_only_its_password_and_salts_differ() -> None:
    stored = hash_password("wonderland", iterations=1000)
    assert verify_password(stored, "wonderland")
    assert not verify_password(stored, "Wonderland")
    assert not verify_password(stored, "")
    assert hash_password("wonderland", iterations=1000) != stored  # a salt of its own


@pytest.mark.parametrize("stored", ["", "plain", "md5$1$x$y", "pbkdf2_sha256$many$x$y", "pbkdf2_sha256$1$!!$??"])
def test_unreadable_hashes_never_verify(stored: str) -> None:
    assert not verify_password(stored, "anything")


def test_file_round_trip_with_groups_and_comments() -> None:
    users = {"alice": User("alice", hash_password("a", iterations=1000), ["apps", "ops"]),
             "bob": User("bob", hash_password("b", iterations=1000))}
    text = render(users)
    assert text.startswith("#")
    again = parse(text + "\n# a comment\n\n")
    assert again == users
    assert verify_password(again["alice"].password_hash, "a")


@pytest.mark.parametrize("line", ["alice", "alice:secret", "bad name:pbkdf2_sha256$1$a$b", "a:b:c:d"])
def test_bad_lines_are_refused_with_their_number(line: str) -> None:
    with pytest.raises(UsersFileError, match="line 2"):
        parse("# header\n" + line + "\n")
