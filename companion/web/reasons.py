"""Why a game ended, in each page's language. The engine gives its reason as one English
sentence (`outcome["reason"]`); this turns the known sentences, and the few that name a player or
a team, into French, and gives the host's own end of a game its sentence."""

from __future__ import annotations

import re

ENDED_BY_HOST = {"en": "The host ended the game.", "fr": "L'hôte a mis fin à la partie."}

_FRENCH = {
    "The prisoners took Room 25 out of the complex.": (
        "Les prisonniers ont fait sortir la Room 25 du complexe."
    ),
    "Everyone escaped.": "Tout le monde s'est échappé.",
    "Escaped with one character eliminated.": "Évasion réussie, un personnage éliminé.",
    "Two prisoners were eliminated.": "Deux prisonniers ont été éliminés.",
    "A prisoner was eliminated.": "Un prisonnier a été éliminé.",
    "Too many characters were eliminated.": "Trop de personnages ont été éliminés.",
    "Everyone was eliminated.": "Tout le monde a été éliminé.",
    "The countdown ran out; there was no guard.": (
        "Le compte à rebours est écoulé ; il n'y avait aucun gardien."
    ),
    "The countdown ran out.": "Le compte à rebours est écoulé.",
    "The countdown ran out with the teams level in Room 25.": (
        "Le compte à rebours est écoulé, les équipes à égalité dans la Room 25."
    ),
}
_SIDE = re.compile(r"(Player|Team) (\w+)")
_PATTERNS = (
    (
        re.compile(r"The countdown ran out; Team (\w+) has the most prisoners in Room 25\."),
        "Le compte à rebours est écoulé ; l'équipe {0} a le plus de prisonniers dans la Room 25.",
    ),
    (re.compile(r"(.+) is the last alive\."), "{0} : dernier en vie."),
    (re.compile(r"(.+) escaped\."), "{0} : évasion réussie."),
)


def _sides_fr(text: str) -> str:
    """ "Player 1 and Team A" in French."""
    named = _SIDE.sub(lambda m: ("Joueur " if m[1] == "Player" else "Équipe ") + m[2], text)
    return named.replace(" and ", " et ")


def reason_text(reason: str | None, lang: str) -> str:
    """The engine's reason in `lang`; an unknown sentence stays in English rather than vanish,
    and no reason (the host ended the game) says so."""
    if not reason:
        return ENDED_BY_HOST.get(lang, ENDED_BY_HOST["en"])
    if lang != "fr":
        return reason
    if reason in _FRENCH:
        return _FRENCH[reason]
    for pattern, french in _PATTERNS:
        found = pattern.fullmatch(reason)
        if found:
            return french.format(*(_sides_fr(g) for g in found.groups()))
    return reason
