#include "cli/game_list_text.h"

#include <cstdio>
#include <string>

#include "store/game_text.h"

namespace bookforge::cli {

void print_game_list_text(const char* title, const std::vector<store::GameRecord>& games) {
  if (games.empty()) return;
  std::printf("\n%s\n", title);
  for (const store::GameRecord& g : games) {
    const std::string white = g.white + (g.white_elo ? " (" + std::to_string(g.white_elo) + ")" : "");
    const std::string black = g.black + (g.black_elo ? " (" + std::to_string(g.black_elo) + ")" : "");
    std::printf("  %s  %-7s  %s - %s  %s  %s\n", store::game_id(g.fingerprint).c_str(), g.result().c_str(),
                white.c_str(), black.c_str(), g.date.c_str(),
                g.site.empty() ? g.event.c_str() : g.site.c_str());
  }
}

}  // namespace bookforge::cli
