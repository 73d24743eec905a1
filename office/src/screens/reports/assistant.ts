/**
 * The assistant: a question in words → POST /ai/chat (a new conversation), follow-ups on the same
 * conversation; the answers shown as they come, and this month's AI credits. Without an AI
 * gateway key the server answers from the shop's own records (docs/ai.md), so it works offline.
 */
import type { AiConversation, AiCredits } from '@duka/shared';
import { useEffect, useState } from 'preact/hooks';
import { may } from '../../access.js';
import { api, get } from '../../api.js';
import { num } from '../../i18n/lang.js';
import { ErrorBanner, Field, useSubmit, useValues } from '../../ui/form.js';
import { html } from '../../ui/html.js';
import { t } from './messages.js';

export function Assistant() {
  const [conversation, setConversation] = useState<AiConversation | null>(null);
  const [credits, setCredits] = useState<AiCredits | null>(null);
  const { values, bind, set } = useValues({ message: '' });
  const readCredits = () =>
    may('GET /accounts/ai-credits') && get<AiCredits>('/accounts/ai-credits').then(setCredits, () => setCredits(null));
  useEffect(() => void readCredits(), []);
  const ask = useSubmit(async () => {
    const body = { message: values.message.trim() };
    const path = conversation ? `/ai/conversations/${conversation.id}/chat` : '/ai/chat';
    setConversation((await api<AiConversation>('POST', path, { body })).data);
    set('message', '');
    void readCredits();
  });
  const allowed = conversation ? may('POST /ai/conversations/{id}/chat') : may('POST /ai/chat');
  return html`<section class="panel assistant" data-testid="assistant">
    <header class="screen-head">
      <h2>${t('ask')}</h2>
      ${credits ? html`<span class="muted" data-testid="ai-credits">${t('credits', { left: num(credits.remaining), all: num(credits.allocated) })}</span>` : null}
    </header>
    ${
      conversation
        ? html`<ol class="chat" data-testid="chat" aria-live="polite">
      ${conversation.messages.map(
        (m) => html`<li class=${m.role} data-testid=${`chat-${m.role}`}>
          <small>${m.role === 'user' ? t('ask.you') : t('ask.assistant')}</small>
          <p>${m.content}</p>
        </li>`,
      )}
    </ol>`
        : null
    }
    <${ErrorBanner} error=${ask.error} />
    ${
      allowed
        ? html`<form class="toolbar" onSubmit=${ask.submit}>
      <${Field} label=${t('ask')} name="message" error=${ask.error}>
        <input ...${bind('message')} placeholder=${t('ask.placeholder')} required maxlength="2000" data-testid="ask-message" />
      <//>
      <button class="primary" type="submit" disabled=${ask.busy} data-testid="ask-send">${t('ask.send')}</button>
      ${conversation ? html`<button type="button" onClick=${() => setConversation(null)} data-testid="ask-new">${t('ask.new')}</button>` : null}
    </form>`
        : null
    }
  </section>`;
}
