// libFuzzer target: input-script text -> parser -> the lines that replay it.
// A malformed script must be a std::runtime_error naming the line (anything else escapes
// and aborts); every accepted event must format back into a line.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/InputScript.h"

using namespace tinkerbox;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::vector<ScriptedEvent> events;
    try {
        events = parseInputScript(text, "fuzz.txt");
    } catch (const std::runtime_error&) {
        return 0;
    }
    for (const ScriptedEvent& e : events) formatScriptedEvent(e);
    return 0;
}
