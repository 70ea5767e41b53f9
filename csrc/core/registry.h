/* registry.h -- the table of hand-written games (csrc/games/registry.c). */
#ifndef MIAI_REGISTRY_H
#define MIAI_REGISTRY_H

#include "game.h"

extern const miai_game_entry *const miai_registry[];
extern const uint32_t miai_registry_size;

/* One entry per game file. */
extern const miai_game_entry miai_tictactoe_entry;
extern const miai_game_entry miai_go_entry;
extern const miai_game_entry miai_hex_entry;
extern const miai_game_entry miai_havannah_entry;
extern const miai_game_entry miai_breakthrough_entry;
extern const miai_game_entry miai_knightthrough_entry;
extern const miai_game_entry miai_leftright_entry;
extern const miai_game_entry miai_connect4_entry;
extern const miai_game_entry miai_othello_entry;

#endif
