// `kverify mutants`: the mutation self-test as a report. Every mutant (kernels/<op>/mutants/) against
// the property catalogue (which property killed it first, after how many cases and seconds, the
// shrunk Case), and beside it a KernelBench-style check of the same mutant, so the difference is
// measured. Markdown and JSON under reports/<backend>/.
#pragma once

#include <span>
#include <string_view>

namespace kverify {

int mutants_command(std::span<const std::string_view> args);
inline constexpr std::string_view kMutantsUsage = "mutants [--backend emu|cuda] [--seed N] [--budget N] [--fuzz-time S] [--out DIR]";
inline constexpr std::string_view kMutantsSummary = "the mutation self-test: every mutant against the catalogue";
inline constexpr std::string_view kMutantsHelp =
    "Runs the property catalogue against every mutant of kernels/<op>/mutants/ (deliberately wrong\n"
    "variants, one bug class each) until a property fails, and a KernelBench-style check (5 random\n"
    "normal trials at one power-of-two shape, allclose 1e-4 for f32, 1e-2 for bf16) beside it, and,\n"
    "separately, a short fuzz: fuzz_run on the mutant's op target pinned to the mutant.\n"
    "Mutants are the variants registered with kverify_add_variant(... MUTANT \"<bug class>\").\n"
    "Options:\n"
    "  --backend emu|cuda   where (default emu)\n"
    "  --seed N             RapidCheck's seed (default 2026)\n"
    "  --budget N           cases per property (default 30)\n"
    "  --fuzz-time S        seconds of short fuzz per mutant (default 10; 0: none)\n"
    "  --out DIR            where mutants.md and mutants.json go (default reports/<backend>)\n"
    "Exit (the catalogue's; the short fuzz is reported only): 0 every mutant killed, 1 a mutant survived, 2 bad input, 3 the backend cannot run here.\n";

}  // namespace kverify
