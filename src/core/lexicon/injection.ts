/**
 * Injection phrases: the wording of instructions aimed at a language model rather than at a
 * reader — orders to ignore earlier instructions, persona switches, requests for the system prompt,
 * chat-template role markers, fake chat turns. General attack language (as catalogued by OWASP's
 * prompt-injection cheat sheet), never a benchmark's template words; `verify/injection.ts` scans
 * passages with them.
 */

/** Determiners between an override verb and what it overrides: "ignore all of the previous …". */
const DET = '(?:(?:all|any|every|the|your|my|our|these|those|of|everything|prior|previous|above|earlier)\\s+){0,4}';

/** An order to drop earlier instructions: "ignore all previous instructions". */
export const OVERRIDE_INSTRUCTIONS = new RegExp(
  `\\b(?:ignore|disregard|forget|override|bypass|skip|abandon)\\s+${DET}(?:previous|prior|above|earlier|preceding|foregoing|original|initial|system|existing|safety)?\\s*(?:instructions?|prompts?|directions?|directives?|rules|guidelines|guardrails|messages?|context|commands?)\\b`,
  'giu',
);

/** An order to drop what came before: "disregard everything above". */
export const DISREGARD_ABOVE =
  /\b(?:disregard|ignore|forget)\s+(?:everything\s+|all\s+)?(?:that\s+)?(?:the\s+|was\s+)?(?:above|before|previously said|said before)\b/giu;

/** An order to drop the user's question: "ignore the user's request". */
export const DISREGARD_USER_REQUEST =
  /\b(?:disregard|ignore)\s+the\s+user['’]?s?\s+(?:question|request|query|message|prompt)\b/giu;

/** A new persona for the model: "you are now …", "developer mode", "act as an unrestricted …". */
export const PERSONA_SWITCH =
  /\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\b|\bpretend\s+(?:to\s+be|you\s+are)\b|\b(?:developer|god|dan|jailbreak|unrestricted)\s+mode\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken)\b/giu;

/** A new system prompt, or an order to reveal one ("system prompt" as a topic is not). */
export const SYSTEM_PROMPT_REQUEST =
  /\bnew\s+system\s+(?:prompt|message|instructions?)\b|\bsystem\s+(?:prompt|override|message)\s*:|\b(?:reveal|print|show|repeat|output|leak|display|dump)\s+(?:me\s+)?(?:your|the)\s+(?:full\s+|entire\s+|original\s+|hidden\s+|initial\s+)?(?:system\s+)?(?:prompt|instructions|configuration)\b/giu;

/** Chat-template role tokens: "<|im_start|>", "[INST]", "<<SYS>>", "<system>". */
export const ROLE_TOKEN =
  /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|assistant)>/giu;

/** "### Instruction:" / "### System" alone on its line; "### System Prompt Extraction" is not a marker. */
export const ROLE_HEADING =
  /^[ \t]*#{2,6}[ \t]*(?:new\s+)?(?:instructions?|system|response|input)[ \t]*(?::[^\n]*)?$/gimu;

/** Weak cues that only count beside a strong one: "do not mention", "reply only with", "IMPORTANT notice". */
export const FOLLOW_UP_INSTRUCTION =
  /\b(?:do\s+not|don['’]t|never)\s+(?:mention|reveal|tell|disclose|say|show)\b|\b(?:instead\s+)?(?:reply|respond|answer|say|state)\s+(?:only\s+)?(?:that|with|exactly|to\s+the\s+user)\b|\bappend\s+(?:this|the|a|an)\b|\b(?:important|urgent)\s+(?:system\s+)?(?:notice|message|instructions?)\b/giu;

/** A fake chat turn: a line opening with a role name and a colon ("Assistant: …"). */
export const FAKE_TURN = /^[ \t>*_-]*(human|assistant|user|system|ai|bot|model|chatgpt|claude)[ \t]*:[^\n]*$/gimu;

/** Role names that make a fake turn on their own; other roles ("user:", "model:") need a second turn. */
export const ALWAYS_A_TURN: ReadonlySet<string> = new Set(['human', 'assistant', 'system', 'chatgpt', 'claude']);

/** Words that address a model, in an HTML comment: "ignore …", "you must", "assistant", "prompt". */
export const ADDRESSES_MODEL =
  /\b(?:ignore|disregard|you\s+are|you\s+must|reply|respond|answer|assistant|ai\b|model|llm|instructions?|prompt|do\s+not\s+(?:mention|reveal|tell))\b/iu;
