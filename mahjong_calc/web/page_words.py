"""The words of the page and of /season, by the key names the page's scripts use (`t("new_game")`).

Each is a msgid of the one catalogue (core/words.py, locale/*/LC_MESSAGES/mjcalc.po): written
here once, in English, with `{n}`-style parameters the page fills in itself. `GET /api/words`
(and a site's static/words.json, made by the same function) gives the page both languages at
once, so that switching needs no request and a site has them before Python has loaded.
"""

from __future__ import annotations

import json

from ..core.words import N_, Text

WORDS: dict[str, Text] = {
    # the header, the game list, a new game
    "subtitle": N_("mahjong scores"),
    "new_game": N_("New game"),
    "variant": N_("Rules"),
    "dealer": N_("First dealer"),
    "start": N_("Start"),
    "seat_e": N_("East"),
    "seat_s": N_("South"),
    "seat_w": N_("West"),
    "seat_n": N_("North"),
    "players_needed": N_("Fill in the four players"),
    "game": N_("Game"),
    "hands_n": N_("hands"),
    "import": N_("Import a game file"),
    "imported": N_("Imported game {ids}"),
    "home_serve": N_("Server: the game is shared between phones"),
    "home_site": N_("This phone: no server, works offline"),
    "loading": N_("Loading the scoring engine…"),
    "engine_failed": N_("The scoring engine did not load"),
    "season_link": N_("Season"),
    # the tabs
    "tab_play": N_("Score"),
    "tab_waits": N_("Waits"),
    "tab_advise": N_("Advise"),
    # entering a hand
    "no_game": N_("Choose or start a game first."),
    "winner": N_("Winner"),
    "self_draw": N_("Self-draw"),
    "discarder": N_("Discarder"),
    "robbed": N_("Robbed kong of"),
    "from": N_("from"),
    "hand": N_("Hand"),
    "melds": N_("Melds"),
    "record": N_("Score & record"),
    "draw": N_("Draw"),
    "clear": N_("Clear"),
    "win_hint": N_("The last tile you tap is the winning tile (yellow). Tap a hand tile to remove it."),
    "mode_hand": N_("Hand"),
    "mode_pung": N_("Pung"),
    "mode_kong": N_("Kong"),
    "mode_chow": N_("Chow"),
    "mode_ckong": N_("Concealed kong"),
    "whose": N_("Whose meld"),
    "winner_own": N_("the winner"),
    "others_melds": N_("Others' melds"),
    "hua": N_("Flowers"),
    "la_zi": N_("At la zi"),
    "piao_by": N_("In a piao round"),
    "piao_count": N_("Piao so far"),
    "sheng_zhang": N_("Discarded an unseen tile"),
    "wild": N_("Wild tile"),
    "multi": N_("Several winners on one discard"),
    "editing": N_("Entering {p}'s tiles (tap {p} again to drop)"),
    "need_winner": N_("Choose the winner"),
    "need_discarder": N_("Choose who discarded, or tick self-draw"),
    "need_robbed": N_("Choose whose kong was robbed, or tick self-draw"),
    "need_discarder_multi": N_("Several winners: choose who discarded"),
    "no_more": N_("All 4 copies of {tile} are in play"),
    "chow_range": N_("A chow starts at 1 to 7 of a suit"),
    # a hand recorded, changed, taken back
    "error": N_("error"),
    "value": N_("Value"),
    "pays": N_("Pays"),
    "player": N_("Player"),
    "total": N_("Total"),
    "chips": N_("Chips"),
    "liability": N_("Liability"),
    "recorded": N_("Hand {n} recorded"),
    "draw_done": N_("Draw recorded"),
    "nothing": N_("No hand to take back"),
    "stale": N_("Someone else just changed this game: it is shown as it now stands; try again"),
    "redone": N_("Put back hand {n}"),
    "hand_n": N_("Hand {n}"),
    "editing_hand": N_("Changing hand {n}"),
    "delete_hand": N_("Delete hand {n}"),
    "cancel": N_("Cancel"),
    "save": N_("Save hand {n}"),
    "confirm_draw": N_("Record hand {n} as a draw?"),
    "confirm_undo": N_("Take back hand {n} ({what})?"),
    "confirm_delete": N_("Delete hand {n} ({what})?"),
    "undone_n": N_("Took back hand {n}"),
    "deleted": N_("Deleted hand {n}"),
    "saved": N_("Hand {n} changed"),
    "now_error": N_("Hand {n} is now an error: {what}"),
    "cannot_load": N_("This hand cannot be shown on the page; change it on the command line"),
    # the standings, the chart, the list, the join link
    "standings": N_("Standings"),
    "undo": N_("Undo last hand"),
    "redo": N_("Redo"),
    "export": N_("Export (YAML)"),
    "export_csv": N_("Export (CSV)"),
    "chart": N_("Running totals"),
    "hands": N_("Hands"),
    "join": N_("Join link"),
    # waits
    "waits_hint": N_("Tap the 13 tiles before the win to see what completes the hand and what it is worth."),
    "waits_go": N_("Show waits"),
    "need13": N_("13 tiles needed"),
    "tile": N_("Tile"),
    "left": N_("Left"),
    "on_discard": N_("On a discard"),
    "on_self_draw": N_("Self-draw"),
    "waits_note": N_("Each cell: the value (the total paid). Left: copies not yet seen."),
    # advise
    "advise_hint": N_("Tap or paste the 14 tiles after the draw to see which to throw, by these rules' own targets."),
    "advise_go": N_("What to throw"),
    "paste": N_("Paste"),
    "paste_label": N_("Tiles to paste"),
    "need14": N_("{n} tiles needed"),
    "discard": N_("Throw"),
    "shanten": N_("Shanten"),
    "count": N_("Draws"),
    "ukeire": N_("Useful tiles"),
    "expected": N_("Expected"),
    "already_win": N_("Already a win, value {v}"),
    "tenpai": N_("tenpai"),
    "advise_note": N_("Shanten: how many tiles the hand is from ready (0: one tile wins). Draws: the copies left of the "
                      "useful tiles, the draws that bring the hand closer (each tile with its copies left below). "
                      "Expected: the self-draw value to expect at ready, weighted by copies left."),
    # the season
    "season": N_("Season"),
    "back": N_("Back to the games"),
    "since": N_("Since"),
    "until": N_("Until"),
    "refresh": N_("Show"),
    "net": N_("Net"),
    "games_n": N_("Games: {n}"),
    "wins": N_("Wins"),
    "deal_ins": N_("Deal-ins"),
    "games_col": N_("Games"),
    "season_chart": N_("Each player's total, game by game"),
}


def words_json() -> str:
    """`GET /api/words`: `{"zh": {key: text}, "en": {key: text}}`, every page word in both languages."""
    return json.dumps({lang: {key: text.render(lang) for key, text in WORDS.items()} for lang in ("zh", "en")},
                      ensure_ascii=False)
