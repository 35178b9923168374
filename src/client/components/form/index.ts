// The form kit: react-hook-form driven by the shared Zod schema of the call (@hookform/resolvers),
// so the browser checks a body with the rules the server applies, in the page's language.
//
//   const form = useSchemaForm(ChangeEmailBody, {
//     defaultValues: { email: '', current_password: '' },
//     labels: { email: t('email.new'), current_password: t('fields.currentPassword') },
//   });
//   const change = useChangeEmail(id);                     // a useMutation of the feature's api
//   <Form form={form} className="form" onSubmit={(body) => change.mutateAsync(body)}>
//     <TextField form={form} name="email" type="email" hint={t('email.hint')} />
//     <PasswordField form={form} name="current_password" />
//     <Field form={form} name="about">{(control) => <textarea className="field__input" {...control} />}</Field>
//     <SubmitButton form={form}>{t('email.submit')}</SubmitButton>
//   </Form>
//
// - Labels name the fields in the messages ("Email can't be blank!"); `label` on a field overrides.
// - Errors show once a filled field is left or the form is sent and follow the typing afterwards;
//   sending focuses the first invalid field. A 422 from the server goes under the fields it names
//   (and in the validation dialog, spec section 8); other failures are shown by the API client.
// - `onSubmit` gets the schema's output (trimmed, lower-cased...). Reset after success with form.reset().
// - useField(form, name) binds a control of your own (radio group, upload...) to the same wiring;
//   nested components can read the form with react-hook-form's useFormContext().
// - Numbers: registerOptions={{ valueAsNumber: true }} or setValueAs.
import './form.css';

export { CheckboxField } from './checkbox-field';
export { EmailField } from './email-field';
export { Field, FieldMessages, TextField, useField, type BoundControl, type FieldProps } from './field';
export { Form, setServerErrors } from './form';
export { issueMessage } from './issue-message';
export { PasswordField } from './password-field';
export { SubmitButton } from './submit-button';
export { translatedResolver, useSchemaForm, type SchemaForm, type SchemaFormOptions } from './use-schema-form';
