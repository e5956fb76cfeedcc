#!/bin/bash
# Every option a command accepts is in its --help. Each app/cli/*_command.cpp gives
# CommandLine::unknownOptions its option lists, inline or as a `known` / `knownOptions`
# vector; they are read here in the order the file gives them, and each name must appear as
# --NAME in the help of the command(s) the table below says own that list. A command file,
# or an option list, the table does not account for fails the test, so that a new command or
# list gets its help too. Each help must also print on standard output, exit 0 and start
# with "usage: mrnn <command> ".
# usage: help_covers_options.sh <mrnn> <source dir>
set -u
mrnn=$1
source_dir=$2
case=help
source "$(dirname "${BASH_SOURCE[0]}")/cli_test_lib.sh"
make_work_folder

# For each command file, the owners of its option lists in the file's order, separated by
# ';'. Commands sharing one list are joined by '+', and each of its options must be in one of
# their helps: train's list holds resume's --run and --checkpoint too, and experiment's every
# verb's options.
declare -A owners=(
  [bench_command.cpp]="bench"
  [copy_command.cpp]="analyze copy;data copy"
  [eval_command.cpp]="eval"
  [experiment_command.cpp]="experiment plan+experiment run+experiment status+experiment stop+experiment table+experiment trial"
  [interop_command.cpp]="export;import"
  [model_describe_command.cpp]="model describe"
  [probing_command.cpp]="analyze gates;analyze tree"
  [project_command.cpp]="project set+project unset"
  [runs_command.cpp]="runs export;runs recover"
  [sampling_command.cpp]="sample"
  [scoring_command.cpp]="score debag;score;analyze recovery;analyze mask"
  [train_command.cpp]="train+resume"
)

# Prints each option list of C++ file $1 on a line of its own, its names separated by spaces:
# every {...} in an `unknownOptions({...})` call, or in a statement that declares or assigns
# `known` or `knownOptions`, up to the statement's `;`. A list with no names prints an empty
# line.
option_lists() {
  awk '
    { text = text " " $0 }
    END {
      while (match(text, /unknownOptions[(] *[{]|[^A-Za-z0-9_]known(Options)? *(=[^=]|[{])/)) {
        text = substr(text, RSTART)
        end = index(text, ";")
        if (end == 0) end = length(text)
        statement = substr(text, 1, end)
        text = substr(text, end + 1)
        while (match(statement, /[{][^{}]*[}]/)) {
          list = substr(statement, RSTART + 1, RLENGTH - 2)
          statement = substr(statement, RSTART + RLENGTH)
          names = ""
          while (match(list, /"[^"]*"/)) {
            names = names (names == "" ? "" : " ") substr(list, RSTART + 1, RLENGTH - 2)
            list = substr(list, RSTART + RLENGTH)
          }
          print names
        }
      }
    }' "$1"
}

problems=()
declare -A helps
# Runs `mrnn <command> --help` once and keeps its standard output in helps[command].
fetch_help() {
  local command=$1 words text status
  [ -n "${helps[$command]+set}" ] && return
  read -ra words <<<"$command"
  text=$("$mrnn" "${words[@]}" --help 2>"$work/stderr")
  status=$?
  if [ "$status" -ne 0 ]; then
    problems+=("mrnn $command --help: exit status $status: $(head -n 1 "$work/stderr")")
  fi
  if [[ $text != "usage: mrnn $command "* ]]; then
    problems+=("mrnn $command --help does not start with 'usage: mrnn $command '")
  fi
  helps[$command]=$text
}

cd "$source_dir/app/cli" || fail "no app/cli in '$source_dir'"
checked=0
for file in *_command.cpp; do
  if [ -z "${owners[$file]+set}" ]; then
    problems+=("$file is not in this script's table: which commands' helps list its options?")
    continue
  fi
  IFS=';' read -ra list_owners <<<"${owners[$file]}"
  mapfile -t lists < <(option_lists "$file")
  if [ "${#lists[@]}" -ne "${#list_owners[@]}" ]; then
    problems+=("$file: ${#lists[@]} option lists found where the table names ${#list_owners[@]}")
    continue
  fi
  for i in "${!lists[@]}"; do
    IFS='+' read -ra commands <<<"${list_owners[$i]}"
    combined=""
    for command in "${commands[@]}"; do
      fetch_help "$command"
      combined+="${helps[$command]}"$'\n'
    done
    read -ra names <<<"${lists[$i]}"
    for name in "${names[@]}"; do
      # The whole name: --top must not pass for --top-k.
      if ! grep -Eq -- "--$name([^A-Za-z0-9-]|\$)" <<<"$combined"; then
        problems+=("$file accepts --$name, which the help of ${list_owners[$i]//+/ or } lacks")
      fi
      checked=$((checked + 1))
    done
  done
done

if [ ${#problems[@]} -gt 0 ]; then
  printf '%s\n' "${problems[@]}"
  fail "${#problems[@]} problems"
fi
echo "PASS (help): $checked accepted options, each in its command's help (${#helps[@]} helps)"
