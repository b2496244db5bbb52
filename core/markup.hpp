// Text for XML and HTML documents (check's JUnit, report's HTML): the one escape both take.
#pragma once

#include <string>

namespace kverify {

// `s` as XML 1.0 and HTML take it in attributes and content: & < > " ' as entities, and the
// control characters XML 1.0 has no place for (a byte a kernel's message might hold) as \xNN.
std::string markup_text(const std::string& s);

}  // namespace kverify
