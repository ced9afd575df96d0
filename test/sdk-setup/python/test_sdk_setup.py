"""docs/sdk-setup.md's Python snippets (written beside this file by
test/sdk-setup/sdk-setup.test.ts, as the page shows them), each run against the sandbox at
SANDBOX with its own app. What the SDK returns is checked here; what the sandbox received, by the
test that runs this one."""

import json
import os

SANDBOX = os.environ["SANDBOX"]
APP_KEY = os.environ["JIGUANG_APP_KEY"]
MASTER_SECRET = os.environ["JIGUANG_MASTER_SECRET"]


def report(msg_id):
    with open(os.environ["SDK_SETUP_RESULT"], "w") as out:
        json.dump({"msg_id": msg_id}, out)


def test_jpush_api_python_client():
    from jpush_snippet import push_through_the_sandbox

    response = push_through_the_sandbox(SANDBOX, APP_KEY, MASTER_SECRET)
    assert response.status_code == 200
    assert response.payload["msg_id"].isdigit()
    report(response.payload["msg_id"])


def test_jsms_api_python_client():
    from jsms_snippet import send_code_through_the_sandbox

    answer = send_code_through_the_sandbox(SANDBOX, APP_KEY, MASTER_SECRET)
    assert set(answer) == {"msg_id"}, answer
    assert answer["msg_id"].isdigit()
    report(answer["msg_id"])
