#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ws {

/*
 * AWS credentials found the way the AWS CLI finds them, never stored by Warpscope:
 *   1. AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN) in the environment;
 *   2. the profile AWS_PROFILE (or "default") in AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials),
 *      then in AWS_CONFIG_FILE (~/.aws/config, section "[profile NAME]" or "[default]").
 * The region comes from AWS_REGION, AWS_DEFAULT_REGION or the profile's `region`; the endpoint of
 * an S3-compatible store from AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL or the profile's
 * `endpoint_url`. lookedAt lists where it looked, for the message when nothing is found.
 */
struct AwsCredentials {
    std::string accessKey;
    std::string secretKey;
    std::string sessionToken;
    std::string source; // "the environment" or "~/.aws/credentials [default]": for messages, no secret
};

struct AwsSettings {
    std::optional<AwsCredentials> credentials; // none: requests go unsigned (public buckets)
    std::string region;
    std::string endpoint;
    std::vector<std::string> lookedAt;
};

AwsSettings findAwsSettings();

} // namespace ws
