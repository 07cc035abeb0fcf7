"""French words a player would spot on a page meant to be English (tests of issue 13)."""

from __future__ import annotations

import re

FRENCH = ("joueur", "joueurs", "partie", "parties", "château", "châteaux", "égalité", "égalités",
          "victoire", "feuille", "saisie", "enregistrer", "enregistré", "résultat", "résultats", "ville",
          "villes", "ferme", "fermes", "relique", "reliques", "habitant", "habitants", "couleur",
          "aucun", "aucune", "départage", "jeton", "jetons", "carte", "cartes", "piste", "tuile",
          "tuiles", "chaque", "nouvelle", "supprimer", "modifier", "avec", "sans", "pour", "puis",
          "gagne", "place", "détail", "catégorie", "bâtiments", "sources d'énergie", "dévotion",
          "artefacts", "mes parties", "à corriger", "appareil", "téléphone", "ex æquo", "et", "ou",
          "de", "du", "des", "le", "la", "les", "un", "une")
# "place" is English too: only the French phrase forms are looked for with it.
_WORDS = [w for w in FRENCH if w != "place"] + ["la 2e place", "1re place"]
PATTERN = re.compile(r"(?<![\w'])(" + "|".join(re.escape(w) for w in sorted(_WORDS, key=len, reverse=True))
                     + r")(?![\w'])", re.IGNORECASE)


def french_words(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The French words of `text`, leaving out `allowed` (players' names, cards they named)."""
    for item in allowed:
        text = text.replace(item, " ")
    return sorted({m.group(1).lower() for m in PATTERN.finditer(text)})
