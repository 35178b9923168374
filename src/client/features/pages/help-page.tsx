// /help (DESIGN.md "Other screens"): questions people ask, and a contact form that reaches the admins.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HELP_FAQ, HELP_MESSAGE_MAX, HelpContactBody } from '#shared/schemas/help.ts';
import { EmailField, Field, Form, SubmitButton, TextField, useSchemaForm } from '#client/components/form/index.ts';
import { useSendHelp } from './api';
import './pages.css';

export function HelpPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="container help" data-testid="help-page">
      <h1>{t('help.title')}</h1>
      <p className="lead">{t('help.lead')}</p>
      <section aria-labelledby="help-faq">
        <h2 id="help-faq">{t('help.faqTitle')}</h2>
        {HELP_FAQ.map((key) => (
          <details key={key} className="help__faq" data-testid={`faq-${key}`}>
            <summary>{t(`help.faq.${key}.q`)}</summary>
            <p>{t(`help.faq.${key}.a`)}</p>
          </details>
        ))}
        <p className="small">
          <Link to="/what-you-get">{t('help.whatYouGet')}</Link>
        </p>
      </section>
      <ContactForm />
    </div>
  );
}

function ContactForm() {
  const { t } = useTranslation('pages');
  const send = useSendHelp();
  const [sent, setSent] = useState(false);
  const form = useSchemaForm(HelpContactBody, {
    defaultValues: { name: '', email: '', subject: '', message: '' },
    labels: {
      name: t('help.fields.name'),
      email: t('help.fields.email'),
      subject: t('help.fields.subject'),
      message: t('help.fields.message'),
    },
  });
  return (
    <section className="help__contact" aria-labelledby="help-contact">
      <h2 id="help-contact">{t('help.contactTitle')}</h2>
      <p>{t('help.contactLead')}</p>
      {sent && (
        <p className="help__sent" role="status" data-testid="help-sent">
          {t('help.sent')}
        </p>
      )}
      <Form
        form={form}
        className="form"
        data-testid="help-form"
        onSubmit={async (body) => {
          await send.mutateAsync(body);
          form.reset();
          setSent(true);
        }}
      >
        <TextField form={form} name="name" autoComplete="name" />
        <EmailField form={form} name="email" />
        <TextField form={form} name="subject" />
        <Field form={form} name="message">
          {(control) => <textarea className="field__input" rows={6} maxLength={HELP_MESSAGE_MAX} {...control} />}
        </Field>
        <SubmitButton form={form}>{t('help.send')}</SubmitButton>
      </Form>
    </section>
  );
}
