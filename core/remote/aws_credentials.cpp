#include "remote/aws_credentials.h"

#include "remote/environment.h"

#include <fstream>
#include <map>

namespace ws {

namespace {

std::string trim(std::string s) {
    const size_t a = s.find_first_not_of(" \t\r");
    const size_t b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The key = value pairs of one [section] of an INI file; empty when the file or section is absent.
std::map<std::string, std::string> iniSection(const std::string& path, const std::string& section) {
    std::map<std::string, std::string> out;
    std::ifstream in(path);
    std::string line, current;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';')
            continue;
        if (line.front() == '[' && line.back() == ']') {
            current = trim(line.substr(1, line.size() - 2));
            continue;
        }
        const size_t eq = line.find('=');
        if (current == section && eq != std::string::npos)
            out[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
    }
    return out;
}

} // namespace

AwsSettings findAwsSettings() {
    AwsSettings s;
    const std::string home = environmentValue("HOME");
    const std::string profile = environmentValue("AWS_PROFILE").empty() ? "default" : environmentValue("AWS_PROFILE");
    const std::string credentialsFile =
        environmentValue("AWS_SHARED_CREDENTIALS_FILE").empty() ? home + "/.aws/credentials" : environmentValue("AWS_SHARED_CREDENTIALS_FILE");
    const std::string configFile = environmentValue("AWS_CONFIG_FILE").empty() ? home + "/.aws/config" : environmentValue("AWS_CONFIG_FILE");
    const auto fromCredentials = iniSection(credentialsFile, profile);
    const auto fromConfig = iniSection(configFile, profile == "default" ? "default" : "profile " + profile);
    auto profileValue = [&](const std::string& key) {
        if (const auto it = fromCredentials.find(key); it != fromCredentials.end())
            return it->second;
        const auto it = fromConfig.find(key);
        return it == fromConfig.end() ? std::string() : it->second;
    };

    s.lookedAt.push_back("AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY");
    if (!environmentValue("AWS_ACCESS_KEY_ID").empty() && !environmentValue("AWS_SECRET_ACCESS_KEY").empty()) {
        s.credentials = AwsCredentials{environmentValue("AWS_ACCESS_KEY_ID"), environmentValue("AWS_SECRET_ACCESS_KEY"), environmentValue("AWS_SESSION_TOKEN"),
                                       "the environment (AWS_ACCESS_KEY_ID)"};
    } else {
        s.lookedAt.push_back(credentialsFile + " [" + profile + "]");
        s.lookedAt.push_back(configFile + " [" + (profile == "default" ? "default" : "profile " + profile) + "]");
        const std::string key = profileValue("aws_access_key_id"), secret = profileValue("aws_secret_access_key");
        if (!key.empty() && !secret.empty()) {
            const std::string where = fromCredentials.count("aws_access_key_id") ? credentialsFile : configFile;
            s.credentials = AwsCredentials{key, secret, profileValue("aws_session_token"),
                                           where + " [" + profile + "]"};
        }
    }
    s.region = !environmentValue("AWS_REGION").empty() ? environmentValue("AWS_REGION")
               : !environmentValue("AWS_DEFAULT_REGION").empty() ? environmentValue("AWS_DEFAULT_REGION")
                                                    : profileValue("region");
    s.endpoint = !environmentValue("AWS_ENDPOINT_URL_S3").empty() ? environmentValue("AWS_ENDPOINT_URL_S3")
                 : !environmentValue("AWS_ENDPOINT_URL").empty()  ? environmentValue("AWS_ENDPOINT_URL")
                                                     : profileValue("endpoint_url");
    return s;
}

} // namespace ws
