#include "pgn/replay.h"

#include <algorithm>
#include <cctype>

#include "chess/polyglot_move.h"
#include "chess/san.h"
#include "pgn/result_token.h"

namespace bookforge::pgn {

namespace {

bool is_null_move(std::string_view token) {
  const char c = token[0];
  if (c != '-' && c != 'Z' && c != '0' && c != '@') return false;
  return token == "--" || token == "Z0" || token == "0000" || token == "@@@@";
}

std::string_view san_reason(chess::SanError e) {
  switch (e) {
    case chess::SanError::kAmbiguous:
      return "ambiguous_move";
    case chess::SanError::kSyntax:
      return "invalid_move";
    default:
      return "illegal_move";
  }
}

// Castling written with unicode dashes ("O‑O", U+2011) becomes "O-O"; other tokens are
// returned unchanged. `buffer` holds the rewritten text.
std::string_view plain_dashes(std::string_view token, std::array<char, 16>& buffer) {
  if ((token[0] != 'O' && token[0] != '0') || token.size() > buffer.size() ||
      token.find('\xE2') == std::string_view::npos)
    return token;
  size_t n = 0;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '\xE2' && i + 2 < token.size() &&
        ((token[i + 1] == '\x80' && token[i + 2] >= '\x90' && token[i + 2] <= '\x95') ||
         (token[i + 1] == '\x88' && token[i + 2] == '\x92'))) {
      buffer[n++] = '-';
      i += 2;
    } else {
      buffer[n++] = token[i];
    }
  }
  return std::string_view(buffer.data(), n);
}

uint16_t elo_field(const TagList& tags, std::string_view name) {
  std::optional<TagValue> v = tags.find(name);
  int elo = v ? v->to_int().value_or(0) : 0;
  return uint16_t(std::clamp(elo, 0, 65535));
}

const chess::Board& start_board() {
  static const chess::Board board;
  return board;
}

}  // namespace

Result<chess::Board> start_position(const TagList& tags, Variant variant) {
  const bool chess960 = variant == Variant::kChess960;
  std::optional<TagValue> fen = tags.find("FEN");
  const std::string text = fen ? fen->decode() : std::string();
  // Without a FEN, a Chess960 game starts from position 518, the standard one.
  if (text.find_first_not_of(" \t") == std::string::npos)
    return chess960 ? chess::Board::from_fen(chess::kStartFen, true) : start_board();
  return chess::Board::from_fen(text, chess960);
}

void WorkerStats::merge_into(ReadStats& total) const {
  total.games += stats.games;
  total.accepted += stats.accepted;
  total.bad += stats.bad;
  total.unsupported_variant += stats.unsupported_variant;
  total.plies += stats.plies;
  for (const auto& [reason, n] : stats.bad_reasons) total.bad_reasons[reason] += n;
  for (size_t i = 0; i < rejected.size(); ++i)
    if (rejected[i]) total.rejected[std::string(kFilterNames[i])] += rejected[i];
  total.bad_examples.insert(total.bad_examples.end(), stats.bad_examples.begin(), stats.bad_examples.end());
}

GameReplayer::GameReplayer(const PipelineOptions& options, GameSink& sink, WorkerStats& stats)
    : options_(options), sink_(sink), stats_(stats) {
  if (options.max_ply > 0) plies_.reserve(size_t(options.max_ply));
}

Control GameReplayer::begin_game(const GameContext& game) {
  ++stats_.stats.games;
  game_ = &game;
  tags_.clear();
  plies_.clear();
  plies_seen_ = 0;
  first_move_legal_ = false;
  state_ = State::kReplaying;
  return Control::kContinue;
}

Control GameReplayer::tag(std::string_view name, TagValue value) {
  tags_.add(name, value);
  return Control::kContinue;
}

Outcome GameReplayer::resolve_outcome() const {
  if (std::optional<TagValue> tag = tags_.find("Result")) {
    std::optional<Outcome> o = parse_result_token(tag->raw());
    if (o && *o != Outcome::kUnknown) return *o;
  }
  return parse_result_token(game_->result).value_or(Outcome::kUnknown);
}

Control GameReplayer::begin_movetext() {
  // A game of a variant the run does not read: Chess960 in a standard run counts as
  // unsupported, as it always has, so a standard run's report is unchanged; a standard game in
  // a Chess960 run is rejected by the variant filter.
  const std::optional<Variant> variant = game_variant(tags_);
  if (!variant || (*variant == Variant::kChess960 && !options_.filter.keeps(*variant))) {
    ++stats_.stats.unsupported_variant;
    state_ = State::kUnsupported;
    return Control::kSkip;
  }
  variant_ = *variant;
  outcome_ = resolve_outcome();
  std::string_view rejected =
      options_.filter.keeps(variant_) ? options_.filter.rejects(tags_, outcome_) : "variant";
  if (!rejected.empty()) {
    reject(rejected);
    // A rejected game is read up to its first move, which tells a game from other text (see
    // end_game), until this worker has found its input to be PGN; a set-up position says enough.
    if (file_ && file_ == pgn_file_) return Control::kSkip;
    if (tags_.find("FEN")) {
      first_move_legal_ = true;
      return Control::kSkip;
    }
    board_ = start_board();
    state_ = State::kProbing;
    return Control::kContinue;
  }
  Result<chess::Board> start = start_position(tags_, variant_);
  if (!start) return bad("bad_fen", start.error().message, tags_.find("FEN")->raw().data());
  board_ = *start;
  start_ply_ = uint16_t(std::clamp(board_.game_ply(), 0, 65535));
  return Control::kContinue;
}

Control GameReplayer::san(std::string_view token) {
  if (state_ != State::kReplaying) return san_after_replay(token);
  const int max_ply = options_.max_ply;
  const int min_plies = options_.filter.min_plies;
  // Moves start with a file or a piece letter; only other tokens can be null moves or castling.
  // One shift and mask: bit c - 'B' is set for each such c ('B' .. 'h' span 39 codes).
  constexpr uint64_t kPlainFirst = (0xFFull << ('a' - 'B')) | (1ull << ('N' - 'B')) | (1ull << ('B' - 'B')) |
                                   (1ull << ('R' - 'B')) | (1ull << ('Q' - 'B')) | (1ull << ('K' - 'B'));
  const unsigned offset = unsigned(static_cast<unsigned char>(token[0])) - unsigned('B');
  const bool plain = offset < 64 && ((kPlainFirst >> offset) & 1) != 0;
  if (!plain && is_null_move(token)) {
    ++plies_seen_;
    state_ = State::kCounting;
    return plies_seen_ >= min_plies ? Control::kSkip : Control::kContinue;
  }
  std::array<char, 16> buffer;
  chess::SanResult r = chess::san_to_move(board_, plain ? token : plain_dashes(token, buffer));
  if (!r.ok()) return bad_move(token, r.error);
  plies_.push_back(
      PlyRecord{board_.key(), chess::move_to_polyglot(r.move), uint16_t(std::min(plies_seen_, 65535))});
  board_.make_move(r.move, undo_);
  ++plies_seen_;
  if (max_ply > 0 && plies_seen_ >= max_ply) {
    state_ = State::kCounting;
    if (plies_seen_ >= min_plies) return Control::kSkip;
  }
  return Control::kContinue;
}

Control GameReplayer::san_after_replay(std::string_view token) {
  if (state_ == State::kProbing) {
    const chess::SanResult first = chess::san_to_move(board_, token);
    first_move_legal_ = first.ok() && first.move != chess::Move::null();
    state_ = State::kRejected;
    return Control::kSkip;
  }
  ++plies_seen_;
  return plies_seen_ >= options_.filter.min_plies ? Control::kSkip : Control::kContinue;
}

// Out of line: building the message would otherwise weigh on every move's call.
[[gnu::noinline]] Control GameReplayer::bad_move(std::string_view token, chess::SanError error) {
  std::string detail = "move " + std::to_string(board_.fullmove_number()) +
                       (board_.side_to_move() == chess::kWhite ? ". " : "... ") + std::string(token) + ": " +
                       std::string(chess::san_error_message(error));
  return bad(san_reason(error), std::move(detail), token.data());
}

Control GameReplayer::error(LexError error, const char* where) {
  if (state_ != State::kReplaying && state_ != State::kCounting) return Control::kSkip;
  std::string_view detail = error == LexError::kUnterminatedComment     ? "comment '{' never closed"
                            : error == LexError::kUnterminatedVariation ? "variation '(' never closed"
                                                                        : "game longer than the size limit";
  return bad(lex_error_reason(error), std::string(detail), where);
}

Control GameReplayer::bad(std::string_view reason, std::string detail, const char* where) {
  state_ = State::kBad;
  ++stats_.stats.bad;
  ++stats_.stats.bad_reasons[std::string(reason)];
  last_bad_.file = file_ ? *file_ : std::string();
  last_bad_.game_number = number_in_file_;
  last_bad_.global_game_number = global_number_;
  last_bad_.line = where ? game_->line_of(where) : game_->first_line;
  last_bad_.reason = std::string(reason);
  last_bad_.detail = detail.empty() ? std::string(reason) : std::move(detail);
  if (stats_.stats.bad_examples.size() < size_t(std::max(options_.max_reported_bad_games, 0)))
    stats_.stats.bad_examples.push_back(last_bad_);
  return Control::kSkip;
}

Control GameReplayer::reject(std::string_view filter) {
  state_ = State::kRejected;
  ++stats_
        .rejected[size_t(std::find(std::begin(kFilterNames), std::end(kFilterNames), filter) - kFilterNames)];
  return Control::kSkip;
}

void GameReplayer::end_game() {
  // Other text can hold a line that reads as a tag by chance, but then its "moves" are not
  // legal, and two such lines in a row practically never occur: a game counts as PGN with a
  // legal move, two tags, or one tag and no move that failed.
  const size_t tags = tags_.entries().size();
  const bool failed = state_ == State::kBad || state_ == State::kRejected;
  if (first_move_legal_ || !plies_.empty() || tags >= 2 || (tags == 1 && !failed)) {
    ++stats_.recognised;
    pgn_file_ = file_;
  }
  if (state_ != State::kReplaying && state_ != State::kCounting) return;
  if (options_.filter.rejects_length(plies_seen_)) {
    reject("min_plies");
    return;
  }
  state_ = State::kDone;
  ++stats_.stats.accepted;
  stats_.stats.plies += plies_.size();
  ReplayedGame game;
  game.outcome = outcome_;
  game.white_elo = elo_field(tags_, "WhiteElo");
  game.black_elo = elo_field(tags_, "BlackElo");
  game.game_number = global_number_;
  game.start_ply = start_ply_;
  game.variant = variant_;
  game.plies = plies_;
  game.file = file_;
  game.number_in_file = number_in_file_;
  game.offset_in_file = offset_in_file_;
  game.tags = &tags_;
  sink_.on_game(game);
}

}  // namespace bookforge::pgn
