// bookforge merge: several Polyglot books into one, without Polyglot's 16-bit wrap-around.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "book/book_file.h"
#include "book/polyglot/merge.h"
#include "cli/command.h"
#include "cli/output_path.h"

namespace bookforge::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string strategy = "sum";
  bool quiet = false;
};

int run_merge(const MergeOptions& opts) {
  if (Status s = check_outputs({{"-o", opts.output}}, opts.inputs); !s.ok()) {
    print_error(s.error().message);
    return kExitUsage;
  }
  std::vector<book::PolyglotBook> books;
  for (const std::string& path : opts.inputs) {
    auto book = book::open_book_file(path);
    if (!book) {
      print_error(book.error().message);
      return kExitFailure;
    }
    books.push_back(std::move(*book));
  }
  std::vector<const book::PolyglotBook*> inputs;
  for (const book::PolyglotBook& b : books) inputs.push_back(&b);
  auto writer = book::PolyglotWriter::create(opts.output);
  if (!writer) {
    print_error(writer.error().message);
    return kExitFailure;
  }
  auto stats = book::merge_books(inputs, *book::parse_merge_strategy(opts.strategy), *writer);
  if (!stats) {
    print_error(stats.error().message);
    return kExitFailure;
  }
  if (auto committed = writer->commit(); !committed) {
    print_error(committed.error().message);
    return kExitFailure;
  }
  if (!opts.quiet)
    std::printf("%s: %llu entries, %llu positions (%llu rescaled to fit 16-bit weights)\n",
                opts.output.c_str(), static_cast<unsigned long long>(stats->entries),
                static_cast<unsigned long long>(stats->positions),
                static_cast<unsigned long long>(stats->rescaled_positions));
  return kExitOk;
}

void setup_merge(CLI::App& root) {
  auto opts = std::make_shared<MergeOptions>();
  CLI::App* cmd =
      add_subcommand(root, "merge",
                     "Merge books into one Polyglot book (weights never wrap around); an Arena .abk "
                     "or ChessBase .ctg book alone is converted");
  cmd->add_option(
         "books", opts->inputs,
         "Books to merge, in priority order: Polyglot (.bin), Arena (.abk) or ChessBase (.ctg, its .cto "
         "and .ctb not needed). An ABK move weighs its games (summed over transpositions; where a "
         "position has no games, the author's priorities). A CTG move weighs 2 x wins + draws of the "
         "side playing it in the position it leads to (games where no move has results; 1 where none "
         "has games), then 0 if marked red, ? or ??, halved for ?!, x2 for ! or a green mark, x4 for !!. "
         "Weights are scaled per position to fit 65535; learn 0")
      ->required();
  cmd->add_option("-o,--output", opts->output, "The merged book")->required();
  cmd->add_option("--strategy", opts->strategy,
                  "sum: add weights (a position whose sums pass 65535 is scaled down as a whole); "
                  "max: largest weight; first: each position from the first book that has it")
      ->check(CLI::IsMember({"sum", "max", "first"}));
  cmd->add_flag("-q,--quiet", opts->quiet, "No summary line");
  cmd->callback([opts] { set_exit_code(run_merge(*opts)); });
}

}  // namespace

BOOKFORGE_REGISTER_COMMAND("merge", setup_merge);

}  // namespace bookforge::cli
