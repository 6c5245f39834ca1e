import pytest
from app_helpers import FakeClient


@pytest.fixture
def fake_client() -> FakeClient:
    return FakeClient()


@pytest.fixture(autouse=True)
def quiz_in_file_order(request, monkeypatch):
    """The app shuffles quiz choices per learner (a random id per install); tests that press letters and read
    snapshots see the file's order. `real_quiz_order` opts a test back into the learner's shuffle."""
    if "real_quiz_order" in request.fixturenames:
        return
    monkeypatch.setattr(
        "tritonlab.app.widgets.quiz_panel.choice_order",
        lambda lesson_id, question, learner=None: list(range(len(question.choices))),
    )


@pytest.fixture
def real_quiz_order():
    return True
