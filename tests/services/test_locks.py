"""Locks a second long write waits on: stable keys, and SQLite's file lock."""

import threading

from benchmarks.services import locks


def test_a_name_gives_the_same_signed_64_bit_key_in_every_process():
    assert locks.lock_key("pricebench-loaddemo") == locks.lock_key("pricebench-loaddemo")
    assert locks.lock_key("a") != locks.lock_key("b")
    assert -(2**63) <= locks.lock_key("pricebench-loaddemo") < 2**63


def test_a_file_lock_held_makes_the_next_holder_wait_and_say_so(tmp_path):
    path = tmp_path / "db.sqlite3.loaddemo.lock"
    said, order = [], []

    def second_holder():
        with locks._file_lock(path, lambda: said.append("waiting")):
            order.append("second")

    with locks._file_lock(path, None):
        second = threading.Thread(target=second_holder)
        second.start()
        second.join(timeout=1)
        assert second.is_alive() and said == ["waiting"]
        order.append("first done")
    second.join(timeout=10)
    assert order == ["first done", "second"]
