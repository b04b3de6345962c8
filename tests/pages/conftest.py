"""Headless Chromium (Debian's package) driven by Playwright; never a downloaded browser."""

import shutil

import pytest

from tests.pages.screens import PHONE

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    from django.db import connections
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # While Playwright's event loop is set in this thread, Django keeps the thread's
        # database connections apart from the ones it opened before (asgiref's Local sees a
        # running loop): those the tests opened are closed here, while they are still seen,
        # or they outlive the test database and it cannot be dropped.
        connections.close_all()


@pytest.fixture(scope="session")
def sqlite_site(tmp_path_factory):
    """`make run`'s site: SQLite with the first part of the demo, served by runserver (its
    address). Pages on it are read only."""
    from tests import sqlite_demo

    directory = tmp_path_factory.mktemp("sqlite-site")
    with sqlite_demo.served(sqlite_demo.load(directory), directory / "runserver.log") as url:
        yield url


@pytest.fixture(scope="session")
def sqlite_clouds_site(tmp_path_factory):
    """`sqlite_site` with Hetzner's families and Google Cloud's t2a and t2d loaded too (the
    demo's other clouds' part, for those families only)."""
    from tests import sqlite_demo

    directory = tmp_path_factory.mktemp("sqlite-clouds-site")
    env = sqlite_demo.load(directory, cloud_families="cx,cpx,cax,ccx,t2a,t2d")
    with sqlite_demo.served(env, directory / "runserver.log") as url:
        yield url


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda message: message.type == "error" and page.console_errors.append(message.text),
    )
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()


@pytest.fixture
def phone(browser):
    """A page on a phone's screen (screens.PHONE), its uncaught errors in `console_errors`."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.console_errors = []
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    yield page
    context.close()


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker):
    """A live server on the bundled demo, loaded once for a module of page tests that only read.

    The demo is committed (the server's thread reads with its own connection), and removed
    after the module: the project's tables emptied, the migrations' reference rows put back, as the
    database tests after it expect. The tests take the plain `django_db` mark: they read.
    """
    from django.apps import apps
    from django.core.management.color import no_style
    from django.db import connection
    from pytest_django.live_server_helper import LiveServer

    from benchmarks.models import InstanceType, Region
    from benchmarks.reference import load_reference_data
    from benchmarks.services import statistics
    from benchmarks.services.demo import load_demo

    with django_db_blocker.unblock():
        load_reference_data(Region, InstanceType)
        load_demo()
        statistics.analyze_tables()  # emptied by the module before, planned as empty else
    server = LiveServer("localhost")
    yield server
    server.stop()
    with django_db_blocker.unblock():
        # The project's tables only: emptying Django's own too would make their rows again
        # through a second connection that outlives the test database.
        tables = [
            model._meta.db_table
            for app in ("benchmarks", "api", "dashboard")
            for model in apps.get_app_config(app).get_models(include_auto_created=True)
        ]
        flush = connection.ops.sql_flush(
            no_style(), tables, reset_sequences=True, allow_cascade=True
        )
        with connection.cursor() as cursor:
            for statement in flush:
                cursor.execute(statement)
        load_reference_data(Region, InstanceType)
