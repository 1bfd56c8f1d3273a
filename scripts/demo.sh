#!/usr/bin/env bash
# Runs cdpskill on the demo page: open a tab, snapshot it, fill the email
# field by its label, click Subscribe, then read the result back.
set -euo pipefail
bin=$1 url=$2

first=$("$bin" "{\"steps\":[{\"openTab\":\"$url\"},{\"snapshot\":true}]}") || { echo "$first"; exit 1; }
echo "$first"
tab=$(printf '%s' "$first" | grep -o '"tab":"t[0-9]*"' | head -1 | cut -d'"' -f4)
echo
"$bin" "{\"tab\":\"$tab\",\"steps\":[{\"fill\":{\"label\":\"Email\",\"value\":\"agent@example.com\"}},{\"click\":{\"text\":\"Subscribe\"}},{\"wait\":{\"text\":\"is subscribed\"}},{\"getTitle\":true}]}"
echo
"$bin" "{\"steps\":[{\"closeTab\":\"$tab\"}]}"
