// The media feature's public entry: what other features may use of it (decision 0920).
export { useMediaState } from './api';
export { AvatarCard } from './media-page';
