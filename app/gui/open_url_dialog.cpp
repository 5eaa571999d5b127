#include "open_url_dialog.h"

#include "remote/remote_url.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ws {

OpenUrlDialog::OpenUrlDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Open URL"));
    setObjectName(QStringLiteral("openUrlDialog"));
    auto* forms = new QLabel(
        tr("<p>A trace in object storage or on a web server:</p>"
           "<table>"
           "<tr><td><tt>s3://BUCKET/KEY</tt></td><td>Amazon S3 or an S3-compatible store (AWS_ENDPOINT_URL)</td></tr>"
           "<tr><td><tt>gs://BUCKET/KEY</tt></td><td>Google Cloud Storage (public objects)</td></tr>"
           "<tr><td><tt>az://ACCOUNT/CONTAINER/BLOB</tt></td><td>Azure Blob Storage (AZURE_STORAGE_CONNECTION_STRING)</td></tr>"
           "<tr><td><tt>https://ACCOUNT.blob.core.windows.net/…?SAS</tt></td><td>Azure with a SAS token</td></tr>"
           "<tr><td><tt>https://…</tt>, <tt>http://…</tt></td><td>a web server</td></tr>"
           "</table>"
           "<p>An S3 or Azure folder (a URL ending in <tt>/</tt>) opens the run of traces in it as a distributed job.</p>"
           "<p>Credentials come from where the clouds' own tools find them (AWS_ACCESS_KEY_ID, ~/.aws, "
           "AWS_PROFILE; a SAS token in the URL) and are never stored. The object is downloaded once; opening "
           "it again costs one request while it is unchanged, and works offline.</p>"),
        this);
    forms->setWordWrap(true);
    forms->setTextFormat(Qt::RichText);
    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("s3://bucket/run1/worker0.pt.trace.json.gz"));
    m_url->setMinimumWidth(520);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_problem->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_url, &QLineEdit::textChanged, this, &OpenUrlDialog::validate);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(forms);
    layout->addWidget(m_url);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    validate();
}

QString OpenUrlDialog::url() const { return m_url->text().trimmed(); }

void OpenUrlDialog::setUrl(const QString& url) { m_url->setText(url); }

void OpenUrlDialog::validate() {
    const std::string text = url().toStdString();
    std::string why;
    bool ok = false;
    if (text.empty()) {
        m_problem->clear();
    } else if (!isRemoteUrl(text)) {
        m_problem->setText(tr("Not a URL: it must start with s3://, gs://, az://, https:// or http://."));
    } else if (const auto parsed = parseRemoteUrl(text, {}, &why); !parsed) {
        m_problem->setText(tr("This URL cannot be opened: %1.").arg(QString::fromStdString(why)));
    } else if (parsed->isPrefix() && parsed->kind != RemoteUrl::Kind::S3 && parsed->kind != RemoteUrl::Kind::AzureBlob) {
        m_problem->setText(tr("Folders can be listed in S3, S3-compatible stores and Azure only, so far; name one trace object."));
    } else {
        m_problem->clear();
        ok = true;
    }
    m_open->setEnabled(ok);
}

} // namespace ws
