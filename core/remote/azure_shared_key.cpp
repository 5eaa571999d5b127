#include "remote/azure_shared_key.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>

namespace ws {

namespace {

constexpr const char* kVersion = "2021-08-06";

std::string percentDecode(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string httpDate() {
    const std::time_t now = std::time(nullptr);
    std::tm gmt{};
    ::gmtime_r(&now, &gmt);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &gmt);
    return buf;
}

} // namespace

std::string azureStringToSign(const std::string& account, const std::string& method, const std::string& url,
                              const std::string& range, const std::string& date, const std::string& version) {
    // The path and query of the URL.
    const size_t scheme = url.find("://");
    const size_t pathStart = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    std::string pathAndQuery = pathStart == std::string::npos ? "/" : url.substr(pathStart);
    const size_t q = pathAndQuery.find('?');
    const std::string path = pathAndQuery.substr(0, q);
    std::map<std::string, std::vector<std::string>> params;
    if (q != std::string::npos) {
        std::string query = pathAndQuery.substr(q + 1);
        size_t pos = 0;
        while (pos <= query.size()) {
            const size_t amp = std::min(query.find('&', pos), query.size());
            const std::string pair = query.substr(pos, amp - pos);
            pos = amp + 1;
            if (pair.empty())
                continue;
            const size_t eq = pair.find('=');
            std::string name = percentDecode(pair.substr(0, eq));
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            params[name].push_back(eq == std::string::npos ? std::string() : percentDecode(pair.substr(eq + 1)));
        }
    }
    std::string s = method + "\n";
    s += "\n\n\n\n\n\n\n\n\n\n"; // Content-Encoding .. If-Unmodified-Since: never sent
    s += range + "\n";
    s += "x-ms-date:" + date + "\nx-ms-version:" + version + "\n";
    s += "/" + account + path;
    for (auto& [name, values] : params) {
        std::sort(values.begin(), values.end());
        s += "\n" + name + ":";
        for (size_t i = 0; i < values.size(); ++i)
            s += (i ? "," : "") + values[i];
    }
    return s;
}

std::vector<std::string> azureSharedKeyHeaders(const AzureSharedKey& credentials, const std::string& method,
                                               const std::string& url, const std::string& range) {
    std::string key(credentials.key.size(), '\0');
    const int decoded = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(key.data()),
                                        reinterpret_cast<const unsigned char*>(credentials.key.data()),
                                        static_cast<int>(credentials.key.size()));
    if (decoded < 0)
        return {};
    size_t padding = 0; // EVP_DecodeBlock counts '=' padding as zero bytes
    for (size_t i = credentials.key.size(); i > 0 && credentials.key[i - 1] == '='; --i)
        ++padding;
    key.resize(static_cast<size_t>(decoded) - padding);
    const std::string date = httpDate();
    const std::string toSign = azureStringToSign(credentials.account, method, url, range, date, kVersion);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int macLength = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(toSign.data()),
              toSign.size(), mac, &macLength))
        return {};
    std::string signature(4 * ((macLength + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(signature.data()), mac, static_cast<int>(macLength));
    signature.resize(static_cast<size_t>(n));
    return {"x-ms-date: " + date, std::string("x-ms-version: ") + kVersion,
            "Authorization: SharedKey " + credentials.account + ":" + signature};
}

} // namespace ws
