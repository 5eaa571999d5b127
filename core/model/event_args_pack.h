#pragma once

#include "model/args_spans.h"
#include "model/store_preparation.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * The event_args rows of a session file (session_store.h): each event's args as the text
 * {"args":VALUE} (nothing for an event without), the texts of a chunk one after the other, with
 * their lengths. Made by the store from the source or an EventTextSource, or by a JSON import that
 * is going to be stored, on its parse threads (StorePreparation::packed).
 */

// The zstd level of the args (SessionWriteOptions::argsZstdLevel's default). On Kineto JSON in 2 MB
// blocks (zstd -b, the ResNet-18 trace of pytorch-h100) level 1 is both faster and smaller than 3:
// x14.8 at 1.36 GB/s against x14.0 at 1.10 GB/s; level 9 was 5-10 % smaller at a fifth of the speed.
inline constexpr int kArgsZstdLevel = 1;

// Appends one event's stored text for its args value (empty: the event has none).
void appendStoredArgs(std::string& text, std::string_view args);

// One chunk compressed: lengths as an int64 column, the text as bytes at `level`.
StorePreparation::PackedArgs packStoredArgs(const std::vector<int64_t>& lengths, std::string_view text, int level);

// The args of every span in `spans`, read from the source text [text, text + length) that starts
// at source offset `textOffset` (a parse block); nullopt when a span lies outside it.
std::optional<StorePreparation::PackedArgs> packSpansArgs(const ArgsSpans& spans, const char* text, size_t length,
                                                          uint64_t textOffset, int level);

} // namespace ws
