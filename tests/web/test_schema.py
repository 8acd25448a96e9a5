"""schemathesis against a real `room25 serve`: every operation of /api/openapi.json, as the host
(the only caller every route answers), with bodies the document accepts and bodies it refuses.
The server must agree with its document: no 5xx, only documented statuses and media types,
answers of the documented shape, every body the document calls invalid refused (4xx), and a
wrong method answered 405. The run stays short: a few examples per operation and mode."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from serving import PIN, Serve

schemathesis = pytest.importorskip("schemathesis")
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from .conftest import SETUP  # noqa: E402

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
    missing_required_header,
    unsupported_method,
]
# Streams never end and the long polls wait 10 s: they are tested on their own.
SKIPPED = {"/api/stream", "/panel/state", "/api/voice/latest", "/panel/voice/latest"}
EXAMPLES = 12


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Serve, requests.Session]]:
    server = Serve(tmp_path_factory.mktemp("schema")).wait_ready()
    host = requests.Session()
    headers = {"X-Room25": "1"}
    assert host.post(f"{server.url}/api/host/login", json={"pin": PIN}, headers=headers).ok
    assert host.post(f"{server.url}/api/host/games", json={"setup": SETUP}, headers=headers).ok
    yield server, host
    server.stop()


def test_the_server_and_its_openapi_document_agree(served) -> None:
    server, host = served
    schema = schemathesis.openapi.from_url(f"{server.url}/api/openapi.json")
    operations = [found.ok() for found in schema.get_all_operations()]
    assert len(operations) >= 29
    tried = 0
    for operation in operations:
        if operation.path in SKIPPED:
            continue
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):

            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case) -> None:
                case.call_and_validate(base_url=server.url, session=host, checks=CHECKS)

            try:
                run()
            except Unsatisfiable:  # nothing the document forbids here (a GET without inputs)
                continue
            except Exception as failure:
                failure.add_note(f"{operation.label}, {mode.value} data")
                raise
            tried += 1
    assert tried >= 45
