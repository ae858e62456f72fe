// Starts `chronoscope lsp` for .ruleset files (vscode-languageclient).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("chronoscope").get("path") || "chronoscope";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "chronoscope",
    "chronoscope rulesets",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "ruleset" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
