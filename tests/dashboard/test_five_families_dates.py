"""The five families' unit prices on a day before some of their types were sold: the table
says which families' figures come from later prices (a 2017 question listed c7g without a
word)."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

QUESTION = "/?benchmark=openssl:aes-128-gcm&region=us-east-1&block_size=8192&processes=1"


def note(html: str) -> str | None:
    found = re.search(r'<p class="notice" id="five-families-later">(.*?)</p>', html, re.S)
    return found and found.group(1)


def test_a_2017_question_says_which_types_were_priced_later(demo_rolled_back):
    said = note(Client().get(QUESTION + "&at=2017-12-13").content.decode())
    assert said and said.startswith("No price in force on 2017-12-13 for ")
    assert "of c7g's arm64 types" in said
    # Study S1's own prices were in force: Fargate's x86_64 sizes are not named; its arm64
    # sizes, first sold in 2021, are not priced at all, and the families' notice says so.
    assert "fargate's" not in said
    html = Client().get(QUESTION + "&at=2017-12-13").content.decode()
    missing = re.search(r'<ul class="notice" id="five-families-missing">(.*?)</ul>', html, re.S)
    assert missing and (
        "Fargate&#x27;s arm64 (Graviton2) tasks were first sold on 2021-11-23, after 2017-12-13"
        in missing.group(1)
    )


def test_today_s_question_has_no_such_note(demo_rolled_back):
    assert note(Client().get(QUESTION).content.decode()) is None
