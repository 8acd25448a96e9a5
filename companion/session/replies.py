"""The session's answer to whoever sent a command: accepted with the new version, or refused
with a stable code, its parameters and a sentence in the table's language.

Refusals come from the engine (its own catalogue) or from the session itself (no game, the
journal cannot be written, the undo limit...), whose sentences are kept here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine import refusal_text

SESSION_TEXTS: dict[str, dict[str, str]] = {
    "no_game": {
        "en": "No game is being played: the host starts one first.",
        "fr": "Aucune partie en cours : l'hôte doit d'abord en lancer une.",
    },
    "not_a_command": {
        "en": "A command is a JSON object with a type and a seat.",
        "fr": "Une commande est un objet JSON avec un type et un siège.",
    },
    "not_a_setup": {
        "en": "A game setup is a JSON object.",
        "fr": "La mise en place d'une partie est un objet JSON.",
    },
    "journal_unwritable": {
        "en": "The companion could not save this ({problem}): nothing was changed.",
        "fr": "Le compagnon n'a pas pu l'enregistrer ({problem}) : rien n'a changé.",
    },
    "journal_unsure": {
        "en": (
            "The companion could not save this ({problem}) nor read its journal back to tell "
            "whether it was kept: restart the companion, then look at the game."
        ),
        "fr": (
            "Le compagnon n'a pas pu l'enregistrer ({problem}) ni relire son journal pour savoir "
            "si c'est gardé : redémarrez le compagnon, puis regardez la partie."
        ),
    },
    "nothing_to_undo": {
        "en": "There is nothing to undo: the game has just started.",
        "fr": "Rien à annuler : la partie vient de commencer.",
    },
    "undo_limit": {
        "en": "Only {count} command(s) can be undone: the table has already seen {what}.",
        "fr": "On ne peut annuler que {count} commande(s) : la table a déjà vu {what}.",
    },
    "bad_count": {
        "en": "Undo takes a whole number of commands, at least 1.",
        "fr": "Annuler prend un nombre entier de commandes, au moins 1.",
    },
    "unknown_action": {
        "en": "The host cannot do {action!r}.",
        "fr": "L'hôte ne peut pas faire {action!r}.",
    },
    "unknown_button": {
        "en": "There is no button {button!r}.",
        "fr": "Il n'y a pas de bouton {button!r}.",
    },
    "hold_back_to_undo": {
        "en": "Hold the Back button to undo the last command.",
        "fr": "Maintenez le bouton Retour pour annuler la dernière commande.",
    },
    "no_seat_request": {
        "en": "No phone is asking for seat {seat}: ask from the phone first.",
        "fr": "Aucun téléphone ne demande la place {seat} : demandez-la depuis le téléphone.",
    },
    "seat_request_changed": {
        "en": "Seat {seat} has a new request (code {ask}): check the code, then hold again.",
        "fr": "Nouvelle demande pour la place {seat} (code {ask}) : vérifiez le code, recommencez.",
    },
    "menu_long_shows_pin": {
        "en": "Holding Menu shows the host PIN on the companion's screen.",
        "fr": "Maintenir Menu affiche le code de l'hôte sur l'écran du compagnon.",
    },
    "no_time_limit": {
        "en": "This game has no programming time limit to pause.",
        "fr": "Cette partie n'a pas de temps limite de programmation à mettre en pause.",
    },
    "already_paused": {"en": "The clock is already paused.", "fr": "Le chrono est déjà en pause."},
    "not_paused": {"en": "The clock is not paused.", "fr": "Le chrono n'est pas en pause."},
    "bad_time_limit": {
        "en": "A time limit is a number of seconds from 0 (off) to 3600.",
        "fr": "Un temps limite est un nombre de secondes, de 0 (aucun) à 3600.",
    },
    "bad_text": {
        "en": "This holds text that is not valid UTF-8 (a lone surrogate): nothing was changed.",
        "fr": "Ceci contient un texte qui n'est pas de l'UTF-8 valide (un demi-caractère "
        "isolé) : rien n'a changé.",
    },
    "not_resumable": {
        "en": "Game {which} cannot be resumed: only a game that a new game replaced can.",
        "fr": (
            "La partie {which} ne peut pas reprendre : "
            "seule une partie remplacée par une nouvelle le peut."
        ),
    },
    "time_not_up": {
        "en": "The programming time is not up: the late seats still have time.",
        "fr": (
            "Le temps de programmation n'est pas écoulé : les places en retard ont encore du temps."
        ),
    },
    "session_closed": {
        "en": "The companion is shutting down.",
        "fr": "Le compagnon s'arrête.",
    },
}

# What the table has already seen, in words, for the undo limit.
SHOWN_WORDS = {
    "mac": {"en": "a M.A.C. card", "fr": "une carte M.A.C."},
    "shuffle": {"en": "a shuffle", "fr": "un mélange"},
    "room": {"en": "a hidden room", "fr": "une salle cachée"},
    "role": {"en": "a role", "fr": "un rôle"},
}


def session_text(code: str, params: dict, lang: str = "en") -> str:
    texts = SESSION_TEXTS.get(code)
    if texts is None:
        return refusal_text(code, params, lang)
    lang = lang if lang in texts else "en"
    shown = dict(params)
    if "what" in shown:
        shown["what"] = SHOWN_WORDS.get(str(shown["what"]), {}).get(lang, shown["what"])
    return texts[lang].format(**shown)


@dataclass(frozen=True)
class Reply:
    """`ok` with the game's `version` after the command, or a refusal's `code`, `params` and
    English `text`; `text_in(lang)` gives the sentence in another language."""

    ok: bool
    version: int = 0
    code: str | None = None
    params: dict = field(default_factory=dict)
    game: str | None = None

    @property
    def text(self) -> str:
        return "" if self.ok else self.text_in("en")

    def text_in(self, lang: str) -> str:
        if self.ok or self.code is None:
            return ""
        return session_text(self.code, self.params, lang)

    def as_dict(self) -> dict:
        if self.ok:
            return {"ok": True, "version": self.version, "game": self.game}
        return {
            "ok": False,
            "refusal": {"code": self.code, "text": self.text, "params": self.params},
        }


def accepted(version: int, game: str | None) -> Reply:
    return Reply(True, version, game=game)


def refused(code: str, version: int = 0, game: str | None = None, **params: object) -> Reply:
    return Reply(False, version, code, dict(params), game)


def from_refusal(refusal: object, version: int, game: str | None) -> Reply:
    """An engine refusal (a `Refusal`, or the older plain sentence)."""
    code = getattr(refusal, "code", None)
    if code is None:
        return refused("unspecified", version, game, text=str(refusal))
    return refused(code, version, game, **dict(getattr(refusal, "params", {}) or {}))
