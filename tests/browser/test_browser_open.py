"""Opening a committed notebook in JupyterLab changes nothing on disk.

JupyterLab writes the running kernel's spec into the notebook it opens; when the committed kernelspec differed
("Python 3" where ipykernel says "Python 3 (ipykernel)"), the notebook became dirty and autosave rewrote a tracked
file the moment a learner opened it. .ci/notebooks.py now commits what ipykernel reports
(tests/test_notebooks.py checks every notebook); this test proves, in JupyterLab itself, that the notebook then
stays clean, and that saving it writes back the very same bytes.
"""
from __future__ import annotations

import json

import pytest

from labhelpers import _JS_PRELUDE, REPO, WAIT_S, open_notebook, save_notebook

_JS_MODEL = "async ({path}) => {" + _JS_PRELUDE + r"""
  const panel = findPanel();
  if (!panel) throw new Error(`notebook ${path} is not open`);
  return {dirty: panel.context.model.dirty, kernelspec: panel.context.model.getMetadata('kernelspec')};
}"""


@pytest.mark.browser
@pytest.mark.slow
def test_opening_start_here_leaves_the_file_as_committed(lab_server, page):
    name = "untouched/00_start_here.ipynb"                 # a fresh copy: other tests may have saved theirs
    target = lab_server.root_dir / name
    target.parent.mkdir(exist_ok=True)
    committed = (REPO / "notebooks" / "00_start_here.ipynb").read_bytes()
    target.write_bytes(committed)

    open_notebook(page, lab_server.url, name)             # waits until the kernel is connected and idle
    page.wait_for_function("() => !!document.querySelector('.jp-Notebook .jp-Cell')", timeout=WAIT_S * 1000)
    model = page.evaluate(_JS_MODEL, {"path": name})
    assert model["kernelspec"] == json.loads(committed)["metadata"]["kernelspec"]
    assert model["dirty"] is False, "JupyterLab changed the notebook just by opening it"
    save_notebook(page, name)
    assert target.read_bytes() == committed, "saving the notebook as opened rewrote it"
