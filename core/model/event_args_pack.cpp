#include "model/event_args_pack.h"

#include "io/column_codec.h"

namespace ws {

void appendStoredArgs(std::string& text, std::string_view args) {
    if (args.empty())
        return;
    text += "{\"args\":";
    text += args;
    text += '}';
}

StorePreparation::PackedArgs packStoredArgs(const std::vector<int64_t>& lengths, std::string_view text, int level) {
    StorePreparation::PackedArgs p;
    p.count = static_cast<uint32_t>(lengths.size());
    p.lengths = ColumnCodec::encodeInt64(lengths, 3);
    p.text = ColumnCodec::encodeFixed(text.data(), text.size(), 1, level);
    return p;
}

std::optional<StorePreparation::PackedArgs> packSpansArgs(const ArgsSpans& spans, const char* text, size_t length,
                                                          uint64_t textOffset, int level) {
    std::vector<int64_t> lengths;
    lengths.reserve(spans.size());
    size_t bytes = 0;
    for (size_t i = 0; i < spans.size(); ++i) {
        const ArgsSpans::Span s = spans.at(i);
        if (s.begin < textOffset || s.begin - textOffset > length || s.length > length - (s.begin - textOffset))
            return std::nullopt;
        bytes += s.length + 9; // {"args": and }
    }
    std::string stored;
    stored.reserve(bytes);
    for (size_t i = 0; i < spans.size(); ++i) {
        const ArgsSpans::Span s = spans.at(i);
        const size_t before = stored.size();
        appendStoredArgs(stored, std::string_view(text + (s.begin - textOffset), s.length));
        lengths.push_back(static_cast<int64_t>(stored.size() - before));
    }
    return packStoredArgs(lengths, stored, level);
}

} // namespace ws
