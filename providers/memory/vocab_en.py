"""English word lists: what kind of thing a word names (a diet, a job, a pet, a condition).

Lists, not sentences: the rules are grammar, these only tell a diet from a job.
"""

from __future__ import annotations

from .wordlists import pairs, phrases

DIET_WORDS = phrases(
    """
    vegetarian, vegan, pescatarian, pescetarian, flexitarian, plant-based, keto, ketogenic,
    paleo, carnivore, gluten-free, dairy-free, lactose-free, sugar-free, low-carb, low carb,
    low-fat, low fat, low-sodium, low sodium, low-salt, low salt, low-sugar, low-FODMAP,
    high-protein, halal, kosher, whole30, Mediterranean, raw vegan, fruitarian, intermittent
    fasting, lacto-ovo vegetarian, ovo-vegetarian, lacto-vegetarian
    """
)

JOB_HEADS = phrases(
    """
    CEO, CFO, COO, CTO, accountant, actor, actress, administrator, anaesthetist, analyst,
    anesthetist, animator, architect, artist, assistant, astronomer, attorney, auditor, author,
    baker, banker, barber, barista, bartender, biologist, blogger, bookkeeper, builder, butcher,
    buyer, caregiver, carer, carpenter, cashier, chef, chemist, cleaner, clerk, co-founder,
    coach, columnist, consultant, cook, copywriter, counsellor, counselor, courier, curator,
    dancer, dentist, designer, detective, developer, dietitian, diplomat, director, doctor,
    driver, economist, editor, electrician, engineer, entrepreneur, farmer, firefighter,
    fisherman, florist, founder, freelancer, gardener, geologist, hairdresser, historian,
    homemaker, househusband, housewife, illustrator, instructor, intern, interpreter, investor,
    janitor, journalist, judge, lawyer, lecturer, librarian, lifeguard, linguist, locksmith,
    machinist, manager, marketer, mathematician, mechanic, midwife, miner, model, musician,
    nanny, nurse, nutritionist, officer, optician, painter, paralegal, paramedic, pharmacist,
    photographer, physician, physicist, physio, physiotherapist, pilot, plumber, poet,
    politician, postgrad, postman, postwoman, producer, professor, programmer, psychiatrist,
    psychologist, publisher, radiographer, realtor, receptionist, reporter, researcher, retiree,
    sailor, salesman, salesperson, saleswoman, scientist, secretary, servant, singer, soldier,
    solicitor, student, surgeon, surveyor, sysadmin, tailor, teacher, technician, tester,
    therapist, translator, tutor, undergrad, vet, veterinarian, waiter, waitress, welder,
    worker, writer
    """
)

PETS = pairs(
    """
    dog=dog, puppy=dog, cat=cat, kitten=cat, rabbit=rabbit, bunny=rabbit, hamster=hamster,
    guinea pig=guinea pig, ferret=ferret, parrot=parrot, budgie=budgie, canary=canary,
    bird=bird, tortoise=tortoise, turtle=turtle, snake=snake, lizard=lizard, gecko=gecko,
    iguana=iguana, horse=horse, pony=pony, goldfish=fish, fish=fish, rat=rat, mouse=mouse,
    chinchilla=chinchilla, goat=goat, chicken=chicken, hedgehog=hedgehog, axolotl=axolotl,
    spider=spider, retriever=dog, golden retriever=dog, labrador=dog, lab=dog, poodle=dog,
    beagle=dog, terrier=dog, spaniel=dog, collie=dog, border collie=dog, husky=dog,
    dachshund=dog, pug=dog, bulldog=dog, french bulldog=dog, corgi=dog, greyhound=dog,
    whippet=dog, german shepherd=dog, sheepdog=dog, boxer=dog, rottweiler=dog, chihuahua=dog,
    labradoodle=dog, cockapoo=dog, schnauzer=dog, shih tzu=dog, mutt=dog, pitbull=dog,
    dalmatian=dog, tabby=cat, siamese=cat, persian=cat, maine coon=cat, ragdoll=cat
    """
)

RELATIVES = pairs(
    """
    wife=wife, husband=husband, partner=partner, spouse=spouse, boyfriend=boyfriend,
    girlfriend=girlfriend, fiance=fiancé, fiancé=fiancé, fiancee=fiancée, fiancée=fiancée,
    son=son, daughter=daughter, kid=child, child=child, baby=baby, brother=brother,
    sister=sister, sibling=sibling, twin=twin, twin brother=twin brother, twin sister=twin
    sister, mum=mother, mom=mother, mother=mother, mama=mother, dad=father, father=father,
    papa=father, stepmother=stepmother, stepfather=stepfather, stepson=stepson,
    stepdaughter=stepdaughter, grandma=grandmother, grandmother=grandmother, granny=grandmother,
    grandpa=grandfather, grandfather=grandfather, grandson=grandson,
    granddaughter=granddaughter, uncle=uncle, aunt=aunt, auntie=aunt, cousin=cousin,
    niece=niece, nephew=nephew, mother-in-law=mother-in-law, father-in-law=father-in-law
    """
)

RELATIVE_PLURALS = pairs(
    """
    kids=children, children=children, sons=sons, daughters=daughters, brothers=brothers,
    sisters=sisters, siblings=siblings, grandchildren=grandchildren, grandkids=grandchildren,
    twins=twins
    """
)

CONDITION_PHRASES = phrases(
    """
    asthma, diabetes, type 1 diabetes, type 2 diabetes, epilepsy, migraines, migraine,
    arthritis, rheumatoid arthritis, celiac disease, coeliac disease, IBS, crohn's disease,
    crohn's, colitis, ADHD, autism, dyslexia, dyspraxia, anxiety, depression, bipolar disorder,
    PTSD, OCD, high blood pressure, hypertension, low blood pressure, high cholesterol, a bad
    back, back pain, chronic pain, eczema, psoriasis, lupus, MS, multiple sclerosis, cancer,
    insomnia, tinnitus, PCOS, endometriosis, a heart condition, heart disease, sleep apnea,
    sleep apnoea, gout, glaucoma, colour blindness, color blindness, hearing loss, long covid,
    fibromyalgia, hypothyroidism, hyperthyroidism, anaemia, anemia, a pacemaker, osteoporosis,
    scoliosis, chronic fatigue, kidney disease, acid reflux, GERD, a thyroid condition, a
    chronic illness, a disability, a knee injury, a bad knee, diabetes type 2, diabetes type 1
    """
)

HEALTH_ADJECTIVES = phrases(
    """
    diabetic, prediabetic, pre-diabetic, type 1 diabetic, type 2 diabetic, asthmatic, epileptic,
    pregnant, deaf, blind, partially sighted, colourblind, colorblind, colour-blind,
    color-blind, dyslexic, autistic, anaemic, anemic, coeliac, celiac, hard of hearing, a
    wheelchair user, in a wheelchair, disabled, immunocompromised, insulin-dependent,
    hypertensive, on dialysis, in recovery, sober, a recovering alcoholic, breastfeeding, on
    insulin, on blood thinners, neurodivergent, left-handed, vegan for health reasons
    """
)

NATURAL_LANGUAGES = phrases(
    """
    English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Norwegian, Danish,
    Finnish, Icelandic, Polish, Czech, Slovak, Hungarian, Romanian, Bulgarian, Greek, Turkish,
    Russian, Ukrainian, Serbian, Croatian, Bosnian, Slovenian, Albanian, Lithuanian, Latvian,
    Estonian, Arabic, Hebrew, Persian, Farsi, Urdu, Hindi, Bengali, Punjabi, Tamil, Telugu,
    Marathi, Gujarati, Chinese, Mandarin, Cantonese, Japanese, Korean, Vietnamese, Thai,
    Indonesian, Malay, Tagalog, Filipino, Swahili, Amharic, Yoruba, Igbo, Hausa, Zulu, Xhosa,
    Afrikaans, Welsh, Irish, Gaelic, Scottish Gaelic, Catalan, Basque, Galician, Latin,
    Esperanto, Brazilian Portuguese, British English, American English, Simplified Chinese,
    Traditional Chinese
    """
)

NATIONALITIES = phrases(
    """
    American, British, English, Scottish, Welsh, Irish, Canadian, Australian, German, French,
    Spanish, Italian, Portuguese, Dutch, Belgian, Swiss, Austrian, Swedish, Norwegian, Danish,
    Finnish, Polish, Czech, Greek, Turkish, Russian, Ukrainian, Chinese, Japanese, Korean,
    Indian, Pakistani, Brazilian, Mexican, Argentinian, Chilean, Colombian, Peruvian, Nigerian,
    Kenyan, Egyptian, Moroccan, South African, New Zealander, Kiwi, Vietnamese, Thai, Filipino,
    Indonesian, Israeli, Iranian, Lebanese, Jewish, Muslim, Christian, Catholic, Hindu,
    Buddhist, Sikh, Atheist, Agnostic
    """
)

PROGRAMMING_LANGUAGES = phrases(
    """
    Python, Rust, Go, Golang, JavaScript, TypeScript, Java, Kotlin, Swift, C, C++, C#, F#, Ruby,
    PHP, Perl, Scala, Haskell, Elixir, Erlang, Clojure, Lua, R, Julia, MATLAB, Dart, Zig, Nim,
    OCaml, Bash, shell, PowerShell, SQL, Objective-C, Fortran, COBOL, Lisp, Scheme, Racket,
    Assembly, Solidity, VB.NET, Visual Basic, Groovy, Crystal, Elm, Prolog
    """
)

VEHICLE_WORDS = phrases(
    """
    car, truck, van, pickup, SUV, motorbike, motorcycle, scooter, moped, e-bike, bike, bicycle,
    camper, campervan, minivan, hatchback, sedan, estate, convertible, Vespa
    """
)

CAR_BRANDS = phrases(
    """
    Toyota, Honda, Subaru, Mazda, Nissan, Mitsubishi, Suzuki, Lexus, Ford, Chevrolet, Chevy,
    Dodge, Jeep, Tesla, GMC, Cadillac, Buick, Chrysler, Volkswagen, VW, Audi, BMW, Mercedes,
    Mercedes-Benz, Porsche, Opel, Skoda, Seat, Renault, Peugeot, Citroen, Citroën, Fiat, Alfa
    Romeo, Ferrari, Lamborghini, Maserati, Volvo, Saab, Kia, Hyundai, Genesis, Mini, Jaguar,
    Land Rover, Range Rover, Rivian, Polestar, BYD, Dacia, Lada, Harley, Harley-Davidson,
    Ducati, Yamaha, Kawasaki, Triumph
    """
)

BUSINESSES = phrases(
    """
    bakery, shop, store, company, business, restaurant, café, cafe, coffee shop, startup,
    start-up, agency, firm, practice, studio, clinic, bar, pub, farm, salon, gym, hotel, B&B,
    bookshop, bookstore, garage, consultancy, nonprofit, non-profit, charity, school, nursery,
    daycare, food truck, brewery, winery, vineyard, workshop, boutique, online shop, podcast,
    YouTube channel, channel, newsletter, blog, band, team, department, lab, team of, family
    business, dental practice, law firm, kitchen, deli
    """
)

HOBBIES = phrases(
    """
    piano, guitar, bass, drums, violin, viola, cello, double bass, flute, clarinet, saxophone,
    sax, trumpet, trombone, harp, ukulele, banjo, mandolin, accordion, harmonica, keyboard,
    organ, oboe, bassoon, tuba, tennis, football, soccer, basketball, baseball, volleyball,
    rugby, cricket, golf, hockey, ice hockey, badminton, squash, table tennis, ping pong, chess,
    poker, bridge, netball, handball, lacrosse, padel, pickleball, darts, snooker, pool, video
    games, board games, Dungeons & Dragons, D&D, yoga, pilates, tai chi, karate, judo,
    jiu-jitsu, taekwondo, boxing, fencing
    """
)

HOBBYISTS = phrases(
    """
    runner, jogger, cyclist, swimmer, climber, hiker, walker, gamer, reader, knitter, surfer,
    skier, snowboarder, golfer, skater, skateboarder, birder, birdwatcher, foodie, bookworm,
    cinephile, film buff, music lover, dog lover, cat lover, marathoner, triathlete, yogi,
    crafter, quilter, collector, stargazer, angler, sailor, diver, scuba diver, rower, kayaker,
    camper, backpacker, traveller, traveler, gardener, home cook, baker, chess player,
    guitarist, pianist, drummer, violinist, singer, dancer, painter, photographer
    """
)
