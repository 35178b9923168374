// Display rules of the spec that several screens share. The ones the profile view needs live in
// shared/views/format (the server renders that view too) and are re-exported here.
export {
  countryName,
  formatAgo,
  formatDate,
  formatMoney,
  intlLocale,
  languageName,
  locationLabel,
  secondaryName,
  telHref,
} from '#shared/views/format.ts';
