"""Every text the scripts in static/js/ show, in the reader's language.

The scripts hold no French of their own: each page carries these strings as JSON in the
`data-strings` attribute of its <body> (no inline script: the CSP forbids it), and the scripts read
them with `T("key")` (static/js/strings.js). A `{name}` in a string is filled by the script.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup, escape

from ..games import i18n
from ..games.i18n import N_, tr

STRINGS = {
    # static/js/play/ (fields, steps, autosave)
    "minus": N_("Moins un"),
    "plus": N_("Plus un"),
    "remove_row": N_("Retirer cette ligne"),
    "help": N_("Aide :"),  # a hint's "?" copied from the first of its kind (fields.js), before its label
    "copied": N_("Copié ✓"),
    "selected": N_("Sélectionné"),
    "next": N_("Suivant"),  # the sticky bar's button, named in full by next_player_named
    "next_player_named": N_("Joueur suivant : {name}"),
    "next_step_named": N_("Étape suivante : {name}"),
    "theirs": N_("Enregistré sur l'autre appareil : "),
    "apply_mine": N_("Appliquer mes saisies"),
    "take_theirs": N_("Reprendre ses valeurs"),
    "conflict_live": N_("Un autre appareil a modifié les mêmes champs pendant que vous saisissiez. Rien "
                        "n'a été écrasé : vos saisies sont restées dans ces champs, la valeur de l'autre "
                        "appareil est indiquée sous chacun, et ses autres modifications sont reprises. "
                        "Choisissez :"),
    "choose_first": N_("Choisissez d'abord : vos saisies ou celles de l'autre appareil"),
    "kept_here": N_("Gardé sur ce téléphone"),
    "saving": N_("Enregistrement…"),

    "saved": N_("Enregistré ✓"),
    "saved_draft": N_("Enregistré ✓ (incomplet)"),
    # what "(incomplet)" means, opened by a tap on it (static/js/play/autosave.js)
    "draft_note": N_("Incomplet : vos saisies sont enregistrées, mais une règle du jeu attend encore une "
                     "valeur (le message sous le champ signalé dit laquelle ; son étape est marquée en "
                     "haut). Les totaux et les résultats s'affichent dès qu'elle est saisie."),
    "close_note": N_("Fermer"),
    "caught_up": N_("Mis à jour avec les saisies d'un autre appareil"),
    "not_saved_conflict": N_("Non enregistré : conflit"),
    "not_saved_fix": N_("Non enregistré : à corriger"),
    "save_failed": N_("L'enregistrement a échoué ({status}) : vos saisies restent sur ce téléphone. "
                      "Si cela dure, rechargez la page."),
    "not_saved": N_("Non enregistré"),
    "reload": N_("Recharger la page"),
    "offline": N_("Pas de réseau : saisies gardées sur ce téléphone"),
    "pending": N_("Modifications en attente…"),
    "restored": N_("Des saisies non enregistrées ont été retrouvées sur ce téléphone : elles sont remises "
                   "et envoyées."),
}
_BEFORE_BOARD = frozenset(STRINGS)
STRINGS |= {
    # board.js (Reterra's community): only on the pages that load it (`BOARD`)
    "square_is": N_("{square} : {what}"),  # a square of the board, said: "D2 : forêt"
    "terrain_F": N_("forêt"),
    "terrain_E": N_("eau"),
    "terrain_D": N_("désert"),
    "terrain_P": N_("plaine"),
    "terrain_R": N_("rocaille"),
    "mark_sources": N_("Source"),
    "mark_sources_long": N_("source d'énergie (toute la tuile, peinte en eau)"),
    "mark_relics": N_("Relique"),
    "mark_relics_long": N_("relique imprimée"),
    "mark_relic_tokens": N_("Jeton relique"),
    "mark_relic_tokens_long": N_("jeton Relique"),
    "mark_junk": N_("Bric-à-brac"),
    "mark_junk_long": N_("jeton Bric-à-brac"),
    "mark_inhabitants": N_("Habitant"),
    "mark_inhabitants_long": N_("habitant"),
    "board_tools": N_("Outils du plateau"),
    "paint": N_("Peindre en {terrain}"),
    "toggle_mark": N_("Poser ou retirer : {mark}"),
    "whole_tile": N_("Tuile entière"),
    "whole_tile_title": N_("Un toucher peint les 4 cases de la tuile"),
    "board_help": N_("Choisissez un terrain puis touchez les cases (ou activez « Tuile entière »). Les "
                     "marques se posent et se retirent d'un toucher."),
    "board_label": N_("Communauté : 16 tuiles de 4 cases, colonnes A à H, lignes 1 à 8"),
    "to_paint": N_("à peindre"),
    "relic": N_("relique"),
    "relic_token": N_("jeton Relique"),
    "junk": N_("bric-à-brac"),
    "inhabitant": N_("habitant"),
    "source": N_("source d'énergie"),
    "board_empty": N_("Plateau vide : peignez les 64 cases."),
    "board_left_one": N_("Encore {n} case à peindre."),
    "board_left": N_("Encore {n} cases à peindre."),
    "calc_failed": N_("Le calcul a échoué ({status}) : les chiffres affichés sont les derniers bons."),
    "calc_offline": N_("Pas de réseau : le calcul reprendra au prochain toucher (les saisies sont gardées)."),
}
BOARD = frozenset(STRINGS) - _BEFORE_BOARD  # board.js's
STRINGS |= {
    # rebirth.js
    "city": N_("Ville"),
    "spaces": N_("{n} cases"),
    "open_to_edit": N_("{summary} : ouvrir pour modifier"),
    # zone.js: a time written again in the phone's zone
    "months": N_("janv.|févr.|mars|avr.|mai|juin|juil.|août|sept.|oct.|nov.|déc."),
    "when": N_("{day} {month} {year} à {hour} h {minute}"),
    # autosave.js: "↶" (undo) on the edit page
    "undoing": N_("Annulation…"),
    "nothing_to_undo": N_("Rien à annuler"),
    "undone": N_("Annulé ✓"),
}


def strings(board: bool = True) -> dict[str, str]:
    """The scripts' strings in the current language; `board`: with board.js's."""
    return {key: tr(text) for key, text in STRINGS.items() if board or key not in BOARD}


def attribute(board: bool = False) -> Markup:
    """`strings()` as the value of base.html's `data-strings` attribute (JSON, escaped for HTML),
    the same for every page in one language: made once per language (a template global:
    `js_strings_attribute()`). `board`: with board.js's strings (a page that loads it says so, in
    its block `js_strings`; the others go without: 2 KB of every page)."""
    return _attribute(i18n.current(), board)


@lru_cache(maxsize=16)
def _attribute(lang: str, board: bool) -> Markup:
    from flask import current_app
    from jinja2.utils import htmlsafe_json_dumps

    policies = current_app.jinja_env.policies  # what the `tojson` filter does, then `forceescape`
    return escape(str(htmlsafe_json_dumps(strings(board), dumps=policies["json.dumps_function"],
                                          **policies["json.dumps_kwargs"])))
