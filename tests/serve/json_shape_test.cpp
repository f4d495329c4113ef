// The JSON the API answers with, field by field: the lichess explorer's shape, the position
// with its legal moves, the books' moves, the engine's line, and errors that stay valid JSON
// whatever bytes they quote.
#include <gtest/gtest.h>

#include "book/polyglot/format.h"
#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "json/store_json.h"
#include "serve/api_response.h"
#include "serve/book_moves.h"
#include "serve/engine_slot.h"
#include "serve/explorer_json.h"
#include "serve/position_json.h"
#include "support/test_support.h"

namespace bookforge::serve {
namespace {

using Json = nlohmann::ordered_json;

store::ExploredMove explored(const chess::Board& board, const std::string& uci, uint64_t white,
                             uint64_t draws, uint64_t black, uint64_t unknown, std::optional<double> rating) {
  store::ExploredMove move;
  move.move = chess::uci_to_move(board, uci);
  move.uci = uci;
  move.san = chess::move_to_san(board, move.move);
  move.white = white;
  move.draws = draws;
  move.black = black;
  move.games = white + draws + black + unknown;
  move.avg_rating = rating;
  if (rating) {  // the store's other figures, made up but consistent: every game rated and dated
    move.avg_opponent_rating = *rating - 100.4;
    move.performance = *rating + 50.6;
    move.first_year = 2001;
    move.last_year = 2024;
  }
  chess::Board after = board;
  chess::UndoInfo undo;
  after.make_move(move.move, undo);
  move.after_key = after.key();
  return move;
}

store::Exploration start_exploration() {
  const chess::Board board;
  store::Exploration x;
  x.key = board.key();
  x.moves = {explored(board, "e2e4", 10, 5, 4, 1, 2301.6), explored(board, "d2d4", 6, 6, 2, 0, std::nullopt),
             explored(board, "g1f3", 1, 0, 0, 0, 2000.4)};
  for (const store::ExploredMove& m : x.moves) x.games += m.games;
  for (store::ExploredMove& m : x.moves) m.share_percent = 100.0 * double(m.games) / double(x.games);
  return x;
}

TEST(ExplorerJson, APlayLineSaysHowTheGamesCameHere) {
  const Json without =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), book::OpeningNames(), {}, {});
  EXPECT_FALSE(without["bookforge"].contains("byLine"));
  store::Arrival arrival;
  arrival.reached = 35;
  arrival.by_line = 5;
  const Json with = explorer_json(start_exploration(), arrival, chess::Board(), book::OpeningNames(), {}, {});
  EXPECT_EQ(with["bookforge"]["byLine"], 5);
  EXPECT_EQ(with["bookforge"]["byOtherOrders"], 30);
  EXPECT_EQ(with["bookforge"]["mostlyTransposed"], true);
}

TEST(ExplorerJson, TopGamesHaveLichesssShapeAndTheRequestCutsThem) {
  store::GameRecord carlsen;
  carlsen.fingerprint = 0x00ab0000000000cdull;
  carlsen.white = "Carlsen,M";
  carlsen.black = "Caruana,F";
  carlsen.white_elo = 2863;
  carlsen.event = "Chessable Masters";
  carlsen.date = "2020.06.??";
  carlsen.site = "https://lichess.org/abcdefgh";
  carlsen.outcome = pgn::Outcome::kBlackWins;
  store::GameRecord old = carlsen;
  old.fingerprint = 7;
  old.white_elo = 0;
  old.date = "????.??.??";
  old.site.clear();
  old.outcome = pgn::Outcome::kDraw;
  store::GameRecord unplaced = old;  // its move is not known: lichess lists none such
  unplaced.fingerprint = 8;
  PositionGames games;
  games.top = {carlsen, unplaced, old};
  games.recent = {old};
  games.moves.uci_by_fingerprint = {{carlsen.fingerprint, "e2e4"}, {old.fingerprint, "d2d4"}};
  ExplorerRequest request;
  request.recent_games = 0;
  const Json json =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), book::OpeningNames(), request, games);
  ASSERT_EQ(json["topGames"].size(), 2u);
  EXPECT_TRUE(json["recentGames"].empty());
  const Json& first = json["topGames"][0];
  EXPECT_EQ(first.begin().key(), "uci");  // first, as lichess writes it
  EXPECT_EQ(first["uci"], "e2e4");
  EXPECT_EQ(first["id"], store::short_game_id(carlsen.fingerprint));
  EXPECT_EQ(first["id"].get<std::string>().size(), 8u);
  EXPECT_EQ(first["bookforge"]["id"], "00ab0000000000cd");
  EXPECT_EQ(first["winner"], "black");
  EXPECT_EQ(first["white"]["name"], "Carlsen,M");
  EXPECT_EQ(first["white"]["rating"], 2863);
  EXPECT_FALSE(first["black"].contains("rating"));  // unknown: left out, never null
  EXPECT_EQ(first["year"], 2020);
  EXPECT_EQ(first["month"], "2020-06");
  EXPECT_EQ(first["bookforge"]["url"], "https://lichess.org/abcdefgh");
  EXPECT_EQ(first["bookforge"]["event"], "Chessable Masters");
  EXPECT_FALSE(first.contains("speed"));  // not a lichess event
  const Json& second = json["topGames"][1];
  EXPECT_EQ(second["uci"], "d2d4");
  EXPECT_TRUE(second["winner"].is_null());  // a draw
  EXPECT_FALSE(second.contains("year"));
  EXPECT_TRUE(second["month"].is_null());
  EXPECT_TRUE(second["bookforge"]["url"].is_null());
}

TEST(ExplorerJson, EachPathHasItsLichessCounterpartsShape) {
  store::GameRecord game;
  game.fingerprint = 0x123456789abcdef0ull;
  game.white = "a";
  game.black = "b";
  game.white_elo = game.black_elo = 1500;
  game.date = "2016.05.01";
  game.event = "Rated Blitz game";
  game.mode = store::GameMode::kRated;                                 // as game_record() reads the Event tag
  game.slice = counts::make_slice(0, 1 + int(pgn::Speed::kBlitz), 0);  // as its TimeControl gives it
  PositionGames games;
  games.top = games.recent = {game};
  games.moves.uci_by_fingerprint = {{game.fingerprint, "e2e4"}};
  ExplorerRequest request;
  request.path = ExplorerPath::kMasters;
  const Json masters =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), book::OpeningNames(), request, games);
  EXPECT_FALSE(masters.contains("recentGames"));
  ASSERT_EQ(masters["topGames"].size(), 1u);
  EXPECT_FALSE(masters["topGames"][0].contains("speed"));
  request.path = ExplorerPath::kLichess;
  const Json lichess =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), book::OpeningNames(), request, games);
  ASSERT_EQ(lichess["recentGames"].size(), 1u);
  EXPECT_EQ(lichess["recentGames"][0]["speed"], "blitz");
  EXPECT_EQ(lichess["recentGames"][0]["mode"], "rated");
  EXPECT_EQ(lichess["topGames"][0]["speed"], "blitz");
}

TEST(ExplorerJson, AMoveOfOneGameNamesItsGame) {
  store::GameRecord game;
  game.fingerprint = 99;
  game.white = "only";
  game.event = "Casual Correspondence game";
  game.mode = store::GameMode::kCasual;
  game.slice = counts::make_slice(0, 1 + int(pgn::Speed::kCorrespondence), 0);
  PositionGames games;
  games.moves.only_game_by_uci = {{"g1f3", game}, {"e2e4", game}};
  ExplorerRequest request;
  request.path = ExplorerPath::kLichess;
  const Json json =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), book::OpeningNames(), request, games);
  const Json& nf3 = json["moves"][2];  // played once
  ASSERT_EQ(nf3["uci"], "g1f3");
  EXPECT_EQ(nf3["game"]["id"], store::short_game_id(99));
  EXPECT_EQ(nf3["game"]["white"]["name"], "only");
  EXPECT_EQ(nf3["game"]["speed"], "correspondence");
  EXPECT_EQ(nf3["game"]["mode"], "casual");
  EXPECT_FALSE(nf3["game"].contains("uci"));
  EXPECT_TRUE(json["moves"][0]["game"].is_null());  // e4: twenty games, whatever the store says
}

TEST(ExplorerJson, HasLichesssFieldsWithTotalsOverEveryMove) {
  const chess::Board board;
  ExplorerRequest request;
  request.max_moves = 2;
  Result<counts::SliceFilter> filter = counts::parse_slice_filter("blitz", "2200", "", "");
  ASSERT_TRUE(filter) << filter.error().message;
  request.filter = *filter;
  const Json json =
      explorer_json(start_exploration(), std::nullopt, board, book::OpeningNames(), request, {});
  EXPECT_EQ(json["white"], 17);
  EXPECT_EQ(json["draws"], 11);
  EXPECT_EQ(json["black"], 6);
  ASSERT_EQ(json["moves"].size(), 2u);  // the third is counted above but not listed
  const Json& e4 = json["moves"][0];
  EXPECT_EQ(e4["uci"], "e2e4");
  EXPECT_EQ(e4["san"], "e4");
  EXPECT_EQ(e4["white"], 10);
  EXPECT_EQ(e4["draws"], 5);
  EXPECT_EQ(e4["black"], 4);
  EXPECT_EQ(e4["games"], 20);  // with the game without a result
  EXPECT_EQ(e4["averageRating"], 2302);
  EXPECT_EQ(e4["averageOpponentRating"], 2201);
  EXPECT_EQ(e4["performance"], 2352);
  EXPECT_TRUE(e4["opening"].is_null());
  EXPECT_TRUE(e4["game"].is_null());
  EXPECT_NEAR(e4["bookforge"]["share"].get<double>(), 100.0 * 20 / 35, 1e-9);
  EXPECT_EQ(e4["bookforge"]["firstYear"], 2001);
  EXPECT_EQ(e4["bookforge"]["lastYear"], 2024);
  const Json& d4 = json["moves"][1];
  // Unknown: left out, as lichess leaves them out, never null.
  EXPECT_FALSE(d4.contains("averageRating"));
  EXPECT_FALSE(d4.contains("averageOpponentRating"));
  EXPECT_FALSE(d4.contains("performance"));
  EXPECT_TRUE(d4["bookforge"]["firstYear"].is_null());
  EXPECT_TRUE(d4["bookforge"]["lastYear"].is_null());
  EXPECT_NEAR(d4["bookforge"]["share"].get<double>(), 40.0, 1e-9);
  EXPECT_EQ(json["topGames"], Json::array());
  EXPECT_EQ(json["recentGames"], Json::array());
  EXPECT_TRUE(json["opening"].is_null());
  EXPECT_EQ(json["bookforge"]["key"], "463b96181691fc9c");
  EXPECT_EQ(json["bookforge"]["fen"], std::string(chess::kStartFen));
  EXPECT_EQ(json["bookforge"]["games"], 35);
  EXPECT_EQ(json["bookforge"]["unknownResults"], 1);
  EXPECT_EQ(json["bookforge"]["filter"], "speeds=blitz; ratings=2200");
  EXPECT_FALSE(json["bookforge"].contains("ignored"));
}

TEST(ExplorerJson, NamesOpeningsFromTheTable) {
  test::TempDir dir;
  chess::Board after_e4;
  chess::UndoInfo undo;
  after_e4.make_move(chess::uci_to_move(after_e4, "e2e4"), undo);
  char line[128];
  std::snprintf(line, sizeof line, "key\teco\tname\n%016llx\tB00\tKing's Pawn Game\n",
                static_cast<unsigned long long>(after_e4.key()));
  test::write_file(dir / "names.tsv", line);
  Result<book::OpeningNames> names = book::OpeningNames::load((dir / "names.tsv").string());
  ASSERT_TRUE(names) << names.error().message;
  const Json json =
      explorer_json(start_exploration(), std::nullopt, chess::Board(), *names, ExplorerRequest{}, {});
  EXPECT_EQ(json["moves"][0]["opening"], Json({{"eco", "B00"}, {"name", "King's Pawn Game"}}));
  EXPECT_TRUE(json["moves"][1]["opening"].is_null());
  EXPECT_EQ(json::opening_json(*names, after_e4.key(), json::Style::kApi)["eco"], "B00");
}

TEST(PositionJson, ListsLegalMovesAndTheLineInSan) {
  Result<QueriedPosition> position = position_from_query({{"play", "e2e4,c7c5"}});
  ASSERT_TRUE(position);
  const Json json = position_json(*position);
  EXPECT_EQ(json["fen"], "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
  EXPECT_EQ(json["key"].get<std::string>().size(), 16u);
  EXPECT_EQ(json["turn"], "white");
  EXPECT_EQ(json["check"], false);
  EXPECT_EQ(json["line"], Json::parse(R"([{"uci":"e2e4","san":"e4"},{"uci":"c7c5","san":"c5"}])"));
  EXPECT_EQ(json["legal"].size(), 30u);
  EXPECT_TRUE(json["result"].is_null());
}

TEST(PositionJson, PromotionsAreFourMovesAndTheEndIsNamed) {
  Result<QueriedPosition> promotion = position_from_query({{"fen", "7k/P7/8/8/8/8/8/K7 w - - 0 1"}});
  ASSERT_TRUE(promotion);
  int promotions = 0;
  const Json promotion_json = position_json(*promotion);
  for (const Json& move : promotion_json["legal"])
    if (move["uci"].get<std::string>().starts_with("a7a8")) ++promotions;
  EXPECT_EQ(promotions, 4);

  Result<QueriedPosition> mate = position_from_query({{"play", "f2f3,e7e5,g2g4,d8h4"}});
  ASSERT_TRUE(mate);
  const Json mated = position_json(*mate);
  EXPECT_EQ(mated["result"], "checkmate");
  EXPECT_EQ(mated["check"], true);
  EXPECT_TRUE(mated["legal"].empty());
  Result<QueriedPosition> stalemate = position_from_query({{"fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}});
  ASSERT_TRUE(stalemate);
  EXPECT_EQ(position_json(*stalemate)["result"], "stalemate");
}

TEST(BookMovesJson, MovesByWeightWithTheirShare) {
  const chess::Board board;
  std::vector<book::PolyglotEntry> entries = {
      {board.key(), chess::move_to_polyglot(chess::uci_to_move(board, "d2d4")), 1, 0},
      {board.key(), chess::move_to_polyglot(chess::uci_to_move(board, "e2e4")), 3, 7},
      {board.key(), 0x0FFF, 50, 0},  // h8h8: no legal move, left out
  };
  Result<book::PolyglotBook> opened =
      book::PolyglotBook::from_bytes(test::polyglot_bytes(entries), "mem.bin");
  ASSERT_TRUE(opened) << opened.error().message;
  std::vector<NamedBook> books;
  books.push_back({"mem.bin", std::move(*opened)});
  const Json json = book_moves_json(books, board);
  ASSERT_EQ(json["books"].size(), 1u);
  EXPECT_EQ(json["books"][0]["name"], "mem.bin");
  EXPECT_EQ(json["books"][0]["moves"], Json::parse(R"([
      {"uci":"e2e4","san":"e4","weight":3,"learn":7,"share":75.0},
      {"uci":"d2d4","san":"d4","weight":1,"learn":0,"share":25.0}])"));
  Result<QueriedPosition> elsewhere = position_from_query({{"play", "e2e4"}});
  ASSERT_TRUE(elsewhere);
  EXPECT_TRUE(book_moves_json(books, elsewhere->board)["books"][0]["moves"].empty());
}

TEST(EngineJson, ScoreFromTheSideToMoveAndThePvInBothNotations) {
  const chess::Board board;
  engine::SearchResult result;
  result.depth = 5;
  result.nodes = 1234;
  engine::PvLine line;
  line.pv = {chess::uci_to_move(board, "e2e4")};
  line.move = line.pv[0];
  line.score = 31;
  result.lines = {line};
  Json json = engine_json({result, SearchEnd::kMovetime}, board);
  EXPECT_EQ(json, Json::parse(R"({"depth":5,"score":{"cp":31},"pv":["e2e4"],"pvSan":["e4"],"nodes":1234,)"
                              R"("stoppedBy":"movetime"})"));
  result.lines[0].score = -engine::mate_in(6);  // mated in 6 plies: 3 moves
  EXPECT_EQ(engine_json({result, SearchEnd::kDepth}, board)["score"], Json({{"mate", -3}}));

  Result<QueriedPosition> mate = position_from_query({{"play", "f2f3,e7e5,g2g4,d8h4"}});
  ASSERT_TRUE(mate);
  const Json mated = engine_json({engine::SearchResult{}, SearchEnd::kNoLegalMoves}, mate->board);
  EXPECT_EQ(mated["score"], Json({{"mate", 0}}));
  EXPECT_EQ(mated["stoppedBy"], "no legal moves");
}

TEST(EngineJson, ASearchThatNeverRanHasNoScore) {
  const Json json = engine_json({engine::SearchResult{}, SearchEnd::kNewerRequest}, chess::Board());
  EXPECT_EQ(json, Json::parse(R"({"depth":0,"score":null,"pv":[],"pvSan":[],"nodes":0,)"
                              R"("stoppedBy":"newer request"})"));
}

TEST(ApiResponse, ErrorsQuotingInvalidUtf8AreStillJson) {
  const ApiResponse answer = error_response(kStatusBadRequest, std::string("fen: \"\xff\xfe\x80\" is bad"));
  EXPECT_EQ(answer.status, 400);
  EXPECT_EQ(answer.content_type, "application/json");
  const Json parsed = Json::parse(answer.body);
  EXPECT_TRUE(parsed["error"].get<std::string>().starts_with("fen: "));
}

}  // namespace
}  // namespace bookforge::serve
