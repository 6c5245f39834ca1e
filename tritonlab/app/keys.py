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


# What each bound action is called in the help: the help lists the live bindings of the screen under it, and a
# binding is shown when its action has words here (the TextArea's cursor keys and the like need no
# explaining). "Class.action" wins over "action" where two widgets give the same action name different
# meanings.
HELP_LABELS: dict[str, str] = {  # in the order the help lists them
    "indent": "key_indent",
    "dedent": "key_dedent",
    "document_start": "key_doc_start",
    "document_end": "key_doc_end",
    "run_code": "run",
    "verify": "verify",
    "bench": "bench",
    "profile": "profile",
    "cancel_job": "cancel",
    "leave_editor": "key_leave_editor",
    "back_to_code": "key_back_to_code",
    "hint": "hint",
    "solution": "solution",
    "open_in_editor": "editor",
    "reset": "reset",
    "next_exercise": "next",
    "previous_exercise": "previous",
    "cycle_pane": "panes",
    "home": "home",
    "goto_line": "key_goto_line",
    "toggle_wrap": "key_wrap",
    "reload_draft": "reload_draft",
    "help": "help",
    "toggle_language": "language",
    "command_palette": "palette",
    "quit": "help_quit",
    "resume": "resume_key",
    "undo": "key_undo",
    "redo": "key_redo",
    "cut": "key_cut",
    "paste": "key_paste",
    "CodeEditor.copy": "key_copy",
    "focus_next": "key_focus_next",
    "LessonList.cursor_down": "key_move",
    "LessonList.cursor_up": "key_move",
    "LessonList.select": "key_open",
    "QuizChoices.cursor_down": "key_move",
    "QuizChoices.cursor_up": "key_move",
    "QuizChoices.select": "key_choose",
    "QuizChoices.letter": "key_answer_letter",
    "Tabs.previous_tab": "key_tab_prev",
    "Tabs.next_tab": "key_tab_next",
    "Button.press": "key_press",
}


# Widget actions that share a name with one of the lab's and mean something else: the Input's cursor "home"
# is not F9's "home" (the lesson list).
NOT_IN_HELP = {"Input.home"}


def help_label(node, action: str) -> str | None:
    """The strings key for a bound action of `node`, or None when the help leaves it out."""
    name = action.rsplit(".", 1)[-1].split("(", 1)[0]
    for cls in type(node).__mro__:
        if f"{cls.__name__}.{name}" in NOT_IN_HELP:
            return None
        key = HELP_LABELS.get(f"{cls.__name__}.{name}")
        if key:
            return key
    return HELP_LABELS.get(name)


_KEY_NAMES = {
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "shift+tab": "shift+Tab",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "question_mark": "?",
    "home": "Home",
    "end": "End",
    "ctrl+home": "ctrl+Home",
    "ctrl+end": "ctrl+End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "space": "Space",
    "backspace": "Backspace",
}


def key_name(key: str) -> str:
    """A key as the help and the README write it: 'F5', 'ctrl+t', 'shift+F7', 'Esc', '↑' (not Textual's '^t',
    '⏎')."""
    if key in _KEY_NAMES:
        return _KEY_NAMES[key]
    *modifiers, last = key.split("+")
    if modifiers and last:
        return "+".join([*modifiers, key_name(last)])
    if len(key) <= 3 and key[:1] == "f" and key[1:].isdigit():
        return key.upper()
    return key
