#include "tools/environment.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "core/error.hpp"
#include "kernels/plan_overrides.hpp"
#include "pipeline/memory_plan.hpp"

namespace kverify::cli {
namespace {

enum class Form { bit, on_off, gib, seconds, simt_plan, wgmma_plan, bulk_plan, path, text, set };

struct Variable {
  std::string_view name, who;
  Form form;
  std::string_view meaning;
};

constexpr Variable kVariables[] = {
#define KVERIFY_ENV(NAME, WHO, FORM, MEANING) {#NAME, #WHO, Form::FORM, MEANING},
#include "tools/environment.def"
#undef KVERIFY_ENV
};

// "" when `value` has the form, else what the form accepts.
std::string form_problem(Form form, std::string_view value) {
  try {
    switch (form) {
      case Form::bit:
        return value == "0" || value == "1" ? "" : "accepted: 1 or 0";
      case Form::on_off:
        return value == "on" || value == "off" || value == "1" || value == "0" ? "" : "accepted: on, off, 1 or 0";
      case Form::gib:
        static_cast<void>(memory_limit_from_env());
        return "";
      case Form::seconds: {
        char* end = nullptr;
        const std::string text(value);
        const double d = std::strtod(text.c_str(), &end);
        return end != text.c_str() && *end == '\0' && d > 0 && d <= 1e6 ? ""
                                                                        : "accepted: seconds, above 0 and up to 1e6";
      }
      case Form::simt_plan:
        static_cast<void>(kernels::simt_plan_override());
        return "";
      case Form::wgmma_plan:
        static_cast<void>(kernels::wgmma_plan_override());
        return "";
      case Form::bulk_plan:
        static_cast<void>(kernels::bulk_plan_override());
        return "";
      case Form::path:
        return value.empty() ? "accepted: a path (unset it for the default)" : "";
      case Form::text:
      case Form::set:
        return "";
    }
  } catch (const std::exception& e) {  // the owner's parser says what it takes
    return e.what();
  }
  return "";
}

std::string_view form_text(Form form) {
  switch (form) {
    case Form::bit:
      return "1 or 0";
    case Form::on_off:
      return "on, off, 1 or 0";
    case Form::gib:
      return "a number";
    case Form::seconds:
      return "seconds";
    case Form::simt_plan:
    case Form::wgmma_plan:
      return "a,b";
    case Form::bulk_plan:
      return "a,b,c[,d]";
    case Form::path:
      return "a path";
    case Form::text:
      return "text";
    case Form::set:
      return "set or not";
  }
  return "";
}

}  // namespace

std::vector<std::string> environment_problems() {
  std::vector<std::string> problems;
  for (const Variable& v : kVariables) {
    if (v.who == "test") continue;  // read by test binaries only
    const char* value = std::getenv(std::string(v.name).c_str());
    if (!value) continue;
    if (std::string why = form_problem(v.form, value); !why.empty()) {
      // The owners' messages already name the variable and its value.
      if (why.rfind(std::string(v.name), 0) != 0) why = std::string(v.name) + "=" + shown(value) + ": " + why;
      problems.push_back(why);
    }
  }
  return problems;
}

std::string environment_help(bool markdown) {
  std::string out;
  if (markdown) {
    out = "| variable | set by | value | what it does |\n|---|---|---|---|\n";
    for (const Variable& v : kVariables)
      out += "| `" + std::string(v.name) + "` | " + std::string(v.who) + " | " + std::string(form_text(v.form)) +
             " | " + std::string(v.meaning) + " |\n";
    return out;
  }
  out =
      "Environment variables kverify reads (checked before a command runs; set by: user, development\n"
      "(plan sweeps), internal (kverify, for its child processes), test (ctest entries)):\n";
  for (const Variable& v : kVariables)
    out += "  " + std::string(v.name) + " (" + std::string(v.who) + ", " + std::string(form_text(v.form)) + ")\n    " +
           std::string(v.meaning) + "\n";
  return out;
}

}  // namespace kverify::cli
