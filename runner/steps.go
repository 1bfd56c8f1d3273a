package runner

// steps is the step registry: one entry per step, read top to bottom.
var steps = []step{
	// Browser and tabs.
	define("chromeStatus", `true | {host, port, headless, autoLaunch}`,
		"check that Chrome answers, launching it if needed", 0, decodeChromeStatus, runChromeStatus),
	define("openTab", `true | "url" | {url, host, port, headless}`,
		"open a new tab (in its own window) and make it this call's tab", visual, decodeOpenTab, runOpenTab),
	define("connectTab", `"t1" | {targetId} | {url: "regex"} (+ host, port)`,
		"make an existing tab this call's tab", visual, decodeConnectTab, runConnectTab),
	define("closeTab", `"t1" | {tab}`,
		"close a tab and forget its alias", 0, decodeCloseTab, runCloseTab),
	define("listTabs", `true | {host, port}`,
		"list the open tabs with their aliases", 0, decodeListTabs, runListTabs),

	// Navigation.
	define("goto", `"url" | {url, waitUntil: commit|domcontentloaded|load|networkidle}`,
		"navigate the tab and report the HTTP status", needsTab|visual, decodeGoto, runGoto),
	define("reload", `true | {waitUntil}`,
		"reload the page", needsTab|visual, decodeReload, runReload),
	define("back", `true`,
		"go back in history ({noHistory:true} when there is none)", needsTab|visual, decodeHistory, runBack),
	define("forward", `true`,
		"go forward in history ({noHistory:true} when there is none)", needsTab|visual, decodeHistory, runForward),

	// Waiting.
	define("wait", `"selector" | {selector, hidden, minCount} | {text, caseSensitive} | {textRegex} | {urlContains}`,
		"wait for an element, text or URL", needsTab, decodeWait, runWait),
	define("sleep", `ms (0-60000)`,
		"pause for a fixed time", 0, decodeSleep, runSleep),

	// JavaScript.
	define("pageFunction", `"() => expr" | "expression" | {fn|expression, refs, await, serialize, timeout}`,
		"run JavaScript in the page and return its typed value", needsTab, decodePageFunction, runPageFunction),
	define("poll", `"() => expr" | {fn, interval, timeout}`,
		"re-run a predicate until it is truthy", needsTab, decodePoll, runPoll),

	// Seeing and acting.
	define("snapshot", `true | {root, detail: full|interactive|summary, viewportOnly, maxDepth, maxElements, maxNameLength, includeText}`,
		"ARIA snapshot of the page as YAML, with refs (s1e4) for interactive elements", needsTab, decodeSnapshot, runSnapshot),
	define("click", `"selector" | "s1e4" | {selector|ref|x,y, force, button, clickCount, doubleClick, jsClick, nativeOnly, timeout}`,
		"click an element once it is actionable", needsTab|visual, decodeClick, runClick),
	define("fill", `{selector|ref|label, value, clear, react, exact, force, timeout} | "text" (focused field)`,
		"replace a field's value", needsTab|visual, decodeFill, runFill),

	// Page facts.
	define("getUrl", `true`, "the page URL", needsTab, decodeTrue("getUrl"), runGetURL),
	define("getTitle", `true`, "the page title", needsTab, decodeTrue("getTitle"), runGetTitle),
}
