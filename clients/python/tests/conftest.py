# The plugin under test comes from its entry point (pip install) or `-p jiguang_sandbox.pytest_plugin`;
# pytester runs the child test runs (a failing test, the plugin on its own).
pytest_plugins = ["pytester"]
