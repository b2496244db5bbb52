#include "pipeline/run_at_once.hpp"

#include <exception>
#include <optional>
#include <string>
#include <thread>

#include "core/error.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/run_case.hpp"
#include "runtime/emu/model/taking_turns.hpp"

namespace kverify {

std::array<Verdict, 2> run_at_once(const Case& first, const Case& second) {
  const Backend backend = resolve_backend(first.backend);
  if (resolve_backend(second.backend) != backend)
    throw InputError("two Cases run at once take one backend: '" + first.to_text() + "' runs on " +
                     std::string(name(backend)) + ", '" + second.to_text() + "' on " +
                     std::string(name(resolve_backend(second.backend))) + " (accepted: the same backend= for both)");
  std::array<Verdict, 2> verdicts;
  std::array<std::exception_ptr, 2> errors;
  emu::TakingTurns turns(2);
  const CasesAtOnce at_once;
  const auto call = [&](int i, const Case& c) {
    std::optional<emu::TakingTurns::Seat> seat;
    if (backend == Backend::emu) seat.emplace(turns, i);
    try {
      verdicts[static_cast<std::size_t>(i)] = run_case(c);
    } catch (...) {
      errors[static_cast<std::size_t>(i)] = std::current_exception();
    }
  };
  { std::jthread one(call, 0, std::cref(first)), other(call, 1, std::cref(second)); }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (turns.given_up())
    for (Verdict& v : verdicts)
      v.hint += std::string(v.hint.empty() ? "" : "; ") +
                "the two calls stopped taking turns: one waited inside its launcher, between launches, for the "
                "other (a lock held across launches?), so from then on they ran freely and their order was not "
                "fixed";
  return verdicts;
}

}  // namespace kverify
