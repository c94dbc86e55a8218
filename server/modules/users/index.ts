// A person's own account: profile, avatar, password, email, roles; and how the public meets a person (who may be
// seen, their public card), which the catalogue's modules (services, projects, people, favourites) build on.
export { lostDisputeRecently, presentPublicUser, sellerLevel, type PublicUserRow } from './public-card.ts';
export { isVisiblePerson, ownedByVisiblePerson, personPolicy, visibleFreelancerOf, visiblePersonOf } from './visibility.ts';
export { people, publicPersonColumns, type People } from './read-model.ts';
export type { UserRow, Role, UserPreferences } from './schema.ts';
export { UserService } from './service.ts';
export { userRoutes } from './routes.ts';
export { presentMe } from './presenter.ts';
export { userFileUses } from './file-uses.ts';
export { usersModule } from './module.ts';
export { clearBidsUnread, countCompletedOrder, flagBidsUnread, markLostDispute, setSellerRating } from './counters.ts';
export { referredPeople, type ReferredPerson } from './stats.ts';
export { referrersOf } from './referrals.ts';
export {
  accountByEmail,
  accountById,
  accountForUpdate,
  accountIdByReferralCode,
  accountsHolding,
  blockAccount,
  bumpTokenVersion,
  clearAvatarOf,
  confirmEmail,
  createAccount,
  listAccounts,
  setPasswordFromReset,
  setRoles,
  setTwoFactorAt,
  turnOffEmails,
  unblockAccount,
  type AccountFilter,
  type NewAccount,
} from './accounts.ts';
export { countUsersJoinedSince } from './admin-stats.ts';
export { profileOfPerson, anonymiseAccount } from './personal-data.ts';
