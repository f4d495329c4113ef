#include "cli/bash_completion.h"

#include <functional>
#include <string_view>
#include <vector>

namespace bookforge::cli {
namespace {

// A word bash reads back literally, whatever it holds ("*" among the results, a quote).
std::string shell_word(std::string_view word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string quoted_list(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + shell_word(word);
  return out;
}

void for_each_command(const CommandOutline& command,
                      const std::function<void(const CommandOutline&)>& visit) {
  visit(command);
  for (const CommandOutline& sub : command.subcommands) for_each_command(sub, visit);
}

const char* kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNone:
      return "none";
    case ValueKind::kPath:
      return "path";
    case ValueKind::kChoice:
      return "choice";
    case ValueKind::kOther:
      return "other";
  }
  return "none";
}

// "kind=choice; words=('never' 'auto' 'always')".
std::string value_assignment(const OptionOutline& option) {
  std::string text = std::string("kind=") + kind_name(option.value);
  if (option.value == ValueKind::kChoice) text += "; words=(" + quoted_list(option.choices) + ")";
  return text;
}

// One `case` arm: "    'pattern' | 'pattern') body ;;".
std::string arm(const std::vector<std::string>& patterns, const std::string& body) {
  std::string line = "    ";
  for (size_t i = 0; i < patterns.size(); ++i) line += (i ? " | " : "") + shell_word(patterns[i]);
  return line + ") " + body + " ;;\n";
}

std::string subcommand_arms(const CommandOutline& program) {
  std::string arms;
  for_each_command(program, [&](const CommandOutline& command) {
    for (const CommandOutline& sub : command.subcommands) {
      std::vector<std::string> patterns;
      const std::string parent = join_words(command.path, " ") + "/";
      patterns.push_back(parent + sub.name);
      for (const std::string& alias : sub.aliases) patterns.push_back(parent + alias);
      arms += arm(patterns, "command=" + shell_word(join_words(sub.path, " ")));
    }
  });
  return arms;
}

// Per command, the words that may follow it: its subcommands, or its flags.
std::string word_list_arms(const CommandOutline& program, bool subcommands) {
  std::string arms;
  for_each_command(program, [&](const CommandOutline& command) {
    std::vector<std::string> words;
    if (subcommands) {
      for (const CommandOutline& sub : command.subcommands) {
        words.push_back(sub.name);
        words.insert(words.end(), sub.aliases.begin(), sub.aliases.end());
      }
    } else {
      for (const OptionOutline& option : command.options)
        if (!option.positional) words.insert(words.end(), option.names.begin(), option.names.end());
    }
    if (!words.empty()) arms += arm({join_words(command.path, " ")}, "words=(" + quoted_list(words) + ")");
  });
  return arms;
}

std::string flag_value_arms(const CommandOutline& program) {
  std::string arms;
  for_each_command(program, [&](const CommandOutline& command) {
    for (const OptionOutline& option : command.options) {
      if (option.positional || option.value == ValueKind::kNone) continue;
      std::vector<std::string> patterns;
      for (const std::string& name : option.names)
        patterns.push_back(join_words(command.path, " ") + "/" + name);
      arms += arm(patterns, value_assignment(option));
    }
  });
  return arms;
}

// A command's arguments complete as its first one does.
std::string argument_arms(const CommandOutline& program) {
  std::string arms;
  for_each_command(program, [&](const CommandOutline& command) {
    for (const OptionOutline& option : command.options)
      if (option.positional) {
        arms += arm({join_words(command.path, " ")}, value_assignment(option));
        break;
      }
  });
  return arms;
}

// The part that does not depend on the commands; @F@ is the function prefix, @PROGRAM@ the
// program's name. COMP_WORDBREAKS splits "--output=book.bin" into "--output", "=", "book.bin".
constexpr std::string_view kCompleter = R"(
# Fills COMPREPLY from `cur` and `kind`: path (file names), choice (`words`), other or none.
@F@_offer() {
  COMPREPLY=()
  case $kind in
    choice)
      local word
      for word in "${words[@]}"; do
        [[ $word == "$cur"* ]] && COMPREPLY+=("$word")
      done
      ;;
    path)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      ;;
  esac
}

@F@() {
  local cur=${COMP_WORDS[COMP_CWORD]} command='' word kind flag='' i
  local -a words
  # The command path so far; a flag's value is skipped, so that it is not taken for a command.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ $word == '=' ]]; then
      ((i++))
    elif [[ $word == -* ]]; then
      @F@_flag_value "$command" "$word"
      if [[ $kind != none && ${COMP_WORDS[i + 1]} != '=' ]]; then ((i++)); fi
    else
      @F@_subcommand "$command" "$word" || true
    fi
  done

  local prev=${COMP_WORDS[COMP_CWORD - 1]}
  if [[ $cur == '=' ]]; then
    flag=$prev
    cur=''
  elif [[ $prev == '=' ]] && ((COMP_CWORD > 1)); then
    flag=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $prev == -* ]]; then
    flag=$prev
  fi
  if [[ -n $flag ]]; then
    @F@_flag_value "$command" "$flag"
    if [[ $kind != none ]]; then
      @F@_offer
      return
    fi
  fi

  kind=choice
  if [[ $cur == -* ]]; then
    @F@_flags "$command"
  else
    @F@_subcommands "$command"
    if ((${#words[@]} == 0)); then
      @F@_argument "$command"
      if [[ $kind == none ]]; then
        kind=choice
        @F@_flags "$command"
      fi
    fi
  fi
  @F@_offer
}

complete -F @F@ @PROGRAM@
)";

std::string replace_all(std::string_view text, std::string_view from, const std::string& to) {
  std::string out;
  for (size_t at; (at = text.find(from)) != std::string_view::npos; text.remove_prefix(at + from.size()))
    out.append(text.substr(0, at)).append(to);
  return out.append(text);
}

std::string function_prefix(const std::string& program) {
  std::string prefix = "_";
  for (char c : program) prefix += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return prefix;
}

}  // namespace

std::string bash_completion(const CommandOutline& program) {
  const std::string f = function_prefix(program.name);
  std::string script =
      "# bash completion for " + program.name + ", written by `" + program.name +
      " completion bash` from its command definitions.\n# Load it with `source <(" + program.name +
      " completion bash)`, or install it as share/bash-completion/completions/" + program.name + ".\n";
  script += "\n# Sets `command` to the path of subcommand $2 of command $1 (\"\" is the program itself).\n";
  script += f + "_subcommand() {\n  case \"$1/$2\" in\n" + subcommand_arms(program) +
            "    *) return 1 ;;\n  esac\n}\n";
  script += "\n# Sets `words` to the subcommands of command $1.\n";
  script += f + "_subcommands() {\n  case $1 in\n" + word_list_arms(program, true) +
            "    *) words=() ;;\n  esac\n}\n";
  script += "\n# Sets `words` to the flags of command $1.\n";
  script +=
      f + "_flags() {\n  case $1 in\n" + word_list_arms(program, false) + "    *) words=() ;;\n  esac\n}\n";
  script += "\n# Sets `kind` (and `words`) to what flag $2 of command $1 takes.\n";
  script += f + "_flag_value() {\n  case \"$1/$2\" in\n" + flag_value_arms(program) +
            "    *) kind=none ;;\n  esac\n}\n";
  script += "\n# Sets `kind` (and `words`) to what the arguments of command $1 are.\n";
  script += f + "_argument() {\n  case $1 in\n" + argument_arms(program) + "    *) kind=none ;;\n  esac\n}\n";
  script += replace_all(replace_all(kCompleter, "@F@", f), "@PROGRAM@", program.name);
  return script;
}

}  // namespace bookforge::cli
