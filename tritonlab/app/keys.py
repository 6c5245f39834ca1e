"""Footer labels in the chosen language.

Textual keeps a per-instance copy of each node's bindings; swapping a binding's description there is the only
way to translate the footer without rebuilding the screen.
"""

from __future__ import annotations

from dataclasses import replace

from tritonlab.app.strings import t


def relabel(node, lang: str, labels: dict[str, str]) -> None:
    """`labels` maps an action name to a strings key; bindings for other actions are left alone."""
    key_to_bindings = node._bindings.key_to_bindings
    changed = False
    for key, bindings in list(key_to_bindings.items()):
        relabelled = [
            replace(binding, description=t(labels[binding.action], lang))
            if binding.action in labels
            else binding
            for binding in bindings
        ]
        if relabelled != bindings:
            key_to_bindings[key] = relabelled
            changed = True
    if changed:  # every refresh rebuilds the footer: not for nothing
        node.refresh_bindings()
