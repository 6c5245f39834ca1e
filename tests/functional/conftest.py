import pytest
from app_helpers import FakeClient


@pytest.fixture
def fake_client() -> FakeClient:
    return FakeClient()
