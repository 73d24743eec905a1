/**
 * The language of a question to the assistant: Swahili when it has Swahili words, English
 * otherwise. One list for the server's assistant and the companion agent, so the same question
 * is answered in the same language by both.
 */
import type { AiLanguage } from './ai.schemas.js';

// Question words, the shop's own topics and a few staple products a shopkeeper names in Swahili,
// and every other Swahili word the keyword planner (planner.ts) reads, so a question it answers in
// Swahili words alone ("Mikopo?", "Stoku iko vipi?") is answered in Swahili.
const SWAHILI =
  /\b(nimeuza|tumeuza|umeuza|tuliuza|niliuza|zinazouza|zinauzwa|inayouzwa|inauzwa|maarufu|bora|zimeisha|inayoisha|zinakwisha|kuisha|kwisha|wamechelewa|zilizochelewa|yaliyochelewa|yamechelewa|imechelewa|kuchelewa|wadaiwa|anadaiwa|wanaodai|mkopo|mikopo|wamekopa|walikopa|mtiririko|pesa|iliyoingia|zilizoingia|stoku|stoo|akiba|idadi|imebaki|iliyobaki|zilizobaki|iliyopo|zilizopo|zipo|ziko|iko|shilingi|badilisha|ibadilishwe|kuwa|kwa|sasa|vipi|mauzo|mapato|leo|jana|wiki|mwezi|hii|huu|bidhaa|bei|deni|madeni|nani|nini|gani|kiasi|ngapi|zipi|je|habari|wateja|mteja|duka|zinazoisha|zinaisha|zinazouzwa|wanaodaiwa|wanadaiwa|matumizi|gharama|zimebaki|weka|iwe|ya|za|wa|ni|na|nipe|nionyeshe|naomba|tafadhali|asante|shikamoo|mambo|niagize|tuagize|niziagize|kuagiza|agiza|upya|oda|maagizo|hazijafika|hazijaletwa|haijafika|hesabu|kuhesabu|tulihesabu|tulipohesabu|upotevu|upungufu|sukari|mchele|unga)\b/;

export function languageOf(text: string): AiLanguage {
  return SWAHILI.test(text.toLowerCase()) ? 'sw' : 'en';
}
