"""The presentation room: facts from the engine become sentences, tables and numbers, in English and Japanese.

No Textual, no torch: the CLI printers and the app's panels both render through here, so a learner reading the
lab in Japanese reads every diagnosis, heading and verdict in Japanese. Nothing here parses engine prose.
"""

from tritonlab.present.words import Said, pick

__all__ = ["Said", "pick"]
