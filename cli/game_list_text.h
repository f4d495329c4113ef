// A list of stored games as the db commands print them (a position's top or recent games: db
// explore, db novelty): one line each with its id, result, players, ratings, date and site.
#pragma once

#include <vector>

#include "store/game_record.h"

namespace bookforge::cli {

// A blank line, the title, then the games; nothing for an empty list.
void print_game_list_text(const char* title, const std::vector<store::GameRecord>& games);

}  // namespace bookforge::cli
