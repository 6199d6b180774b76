"""The lazy packages (`ctxchat`, `ctxchat.kit`, `ctxchat.ranking`, the memory library) share
one loader: every exported name resolves to the object its module defines, an unknown one is an
AttributeError naming the package, and importing a package loads none of its modules."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

LAZY_PACKAGES = ("ctxchat", "ctxchat.kit", "ctxchat.ranking", "ctxchat.providers.memory")


@pytest.mark.parametrize("package_name", LAZY_PACKAGES)
def test_every_exported_name_is_the_object_of_its_module(package_name: str) -> None:
    package = importlib.import_module(package_name)
    exports: dict[str, str] = package._EXPORTS
    assert set(exports) <= set(package.__all__)
    for name, module_name in exports.items():
        home = importlib.import_module(module_name, package_name)
        assert getattr(package, name) is getattr(home, name), name


@pytest.mark.parametrize("package_name", LAZY_PACKAGES)
def test_an_unknown_name_is_an_attribute_error_naming_the_package(package_name: str) -> None:
    package = importlib.import_module(package_name)
    with pytest.raises(AttributeError, match=rf"module '{package_name}' has no attribute 'nope'"):
        _ = package.nope


def test_importing_the_packages_loads_none_of_their_modules() -> None:
    probe = (
        "import sys, ctxchat, ctxchat.kit, ctxchat.ranking, ctxchat.providers.memory\n"
        "print(sorted(m for m in sys.modules if m.startswith('ctxchat.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(eval(out))
    assert loaded == {
        "ctxchat.core",
        "ctxchat.core.lazy",
        "ctxchat.kit",
        "ctxchat.ranking",
        "ctxchat.providers",
        "ctxchat.providers.memory",
    }
