/* registry.c -- every hand-written game, by name.  Add a game: one line here and one
 * declaration in core/registry.h. */
#include "../core/registry.h"

const miai_game_entry *const miai_registry[] = {
    &miai_tictactoe_entry,
    &miai_go_entry,
    &miai_hex_entry,
    &miai_havannah_entry,
    &miai_breakthrough_entry,
    &miai_knightthrough_entry,
    &miai_leftright_entry,
    &miai_connect4_entry,
    &miai_othello_entry,
};

const uint32_t miai_registry_size = sizeof miai_registry / sizeof miai_registry[0];
